package dev.benchlake.analysis.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The change of a group of steps, {@code ln θ_G = (1/|S|) Σ_s ln θ_s}: the mean of its steps' own log
 * changes, so {@code θ_G} is the geometric mean of the steps' ratios whatever runs or rounds each step
 * has, with a standard error that counts the steps' correlation through the runs (or rounds) they
 * share: a cluster-robust (sandwich) variance, clustered by round or run (issue 47: a version study
 * drops decided steps from its later rounds, and a group interval from complete runs only rested on
 * the rounds before its first step dropped out).
 *
 * <p>Each step is fitted on its own by least squares: one mean per arm (one arm; or, where the step's
 * pairs swap CPU sets and fit the set ({@link CrossoverLogRatio#fits}), one per assignment, θ their
 * average, as {@link CrossoverLogRatio}), so {@code ln θ_s = Σ_p a_{s,p}·d_{s,p}} with
 * {@code a = 1/(arms·n_arm)} and residuals {@code e_{s,p} = d_{s,p} − mean of its arm}. A cluster's
 * influence is {@code ψ_p = (1/|S|) Σ_{s∋p} a_{s,p}·e_{s,p}/√(1 − h_{s,p})}, {@code h = 1/n_arm} the
 * leverage, and {@code Var(ln θ_G) = Σ_p ψ_p²}: Bell &amp; McCaffrey's CR2, whose adjustment is this
 * simple because the stacked regression's parameters are each step's own. Degrees of freedom are
 * their Satterthwaite approximation, {@code df = tr(MΩ)²/tr((MΩ)²)} for {@code Var = y'My}, under
 * independent errors of each step's own residual variance Ω (a step with few rounds whose noise
 * dominates leaves few df). The plain {@code G/(G − k)·Σψ²} with {@code df = G − k} covered 90 % with
 * sets and 94 % without in {@code GroupLogRatioTest}'s simulated studies (numpy, 2,000 each); this
 * covers 94-95 % there.
 *
 * <p>Where every cluster has every step this is the old analysis of per-cluster group figures (the
 * mean over S of a cluster's log figures) exactly: {@link PairedLogRatio} of the per-round group log
 * ratios; {@link CrossoverLogRatio} of them when the assignments have equally many rounds (with
 * {@code n₁ ≠ n₂}, the two assignments' own spreads, Welch-like, where the crossover pools them, and
 * Welch's df for two means of one spread (18.8 for 11 and 10 rounds, not 19): its variance times {@code (RSS₁·n₂/(n₁−1) + RSS₂·n₁/(n₂−1))·(n−2)/((RSS₁ + RSS₂)·n)}); and for
 * {@link #unpaired} sides, {@link LogRatio} (Welch) of the per-run group figures.
 */
public final class GroupLogRatio {
  private GroupLogRatio() {}

  /**
   * One step's pairs with the base.
   *
   * @param rounds each pair's key (its round), distinct
   * @param logRatios each pair's {@code ln(candidate/baseline)}, finite
   * @param baselineOnSetOne each pair's set assignment ({@link CrossoverLogRatio}); null: no sets
   */
  public record PairedStep(List<String> rounds, double[] logRatios, boolean[] baselineOnSetOne) {}

  /**
   * One step's runs: the log of each run's figure, by run id, on each side.
   *
   * @param baselineLogs at least two runs
   * @param candidateLogs at least two runs
   */
  public record UnpairedStep(Map<String, Double> baselineLogs, Map<String, Double> candidateLogs) {}

  /**
   * The group's change from its steps' pairs, clustered by round.
   *
   * @param steps at least one; each with at least two pairs
   */
  public static RoundClusteredLogRatio paired(List<PairedStep> steps) {
    List<Fit> fits = new ArrayList<>();
    for (PairedStep step : steps) {
      CrossoverLogRatio.requirePairs(step.logRatios(), step.baselineOnSetOne());
      boolean sets = step.baselineOnSetOne() != null && CrossoverLogRatio.fits(step.baselineOnSetOne());
      int[] arm = new int[step.logRatios().length];
      for (int i = 0; sets && i < arm.length; i++) {
        arm[i] = step.baselineOnSetOne()[i] ? 0 : 1;
      }
      fits.add(new Fit(step.rounds(), step.logRatios(), arm, sets ? 2 : 1));
    }
    Clustered c = clustered(fits);
    int parameters = fits.stream().anyMatch(f -> f.arms() == 2) ? 2 : 1;
    return new RoundClusteredLogRatio(c.clusters(), parameters, c.mean(), Math.sqrt(c.variance()), c.df());
  }

  /**
   * The group's change from its steps' runs, clustered by run on each side; the sides' variances
   * added and their df joined as Welch's, {@code (V_b + V_c)²/(V_b²/ν_b + V_c²/ν_c)}.
   *
   * @param steps at least one; each with at least two runs a side
   */
  public static LogRatio unpaired(List<UnpairedStep> steps) {
    Clustered b = clustered(steps.stream().map(s -> Fit.ofRuns(s.baselineLogs())).toList());
    Clustered c = clustered(steps.stream().map(s -> Fit.ofRuns(s.candidateLogs())).toList());
    double se2 = b.variance() + c.variance();
    double df = se2 > 0 ? se2 * se2 / (welchTerm(b) + welchTerm(c)) : Double.NaN;
    return new LogRatio(b.clusters(), c.clusters(), c.mean() - b.mean(), Math.sqrt(se2), df,
        Math.sqrt(b.variance() * b.clusters()), Math.sqrt(c.variance() * c.clusters()));
  }

  /** {@code V²/ν}; 0 for a side without variation (whose ν is undefined), as Welch's. */
  private static double welchTerm(Clustered side) {
    return side.variance() > 0 ? side.variance() * side.variance() / side.df() : 0;
  }

  /** One step's figures by cluster, each in arm 0 or 1 of {@code arms}. */
  private record Fit(List<String> keys, double[] values, int[] arm, int arms) {
    static Fit ofRuns(Map<String, Double> logs) {
      return new Fit(List.copyOf(logs.keySet()), logs.values().stream().mapToDouble(Double::doubleValue).toArray(),
          new int[logs.size()], 1);
    }
  }

  /** The mean over the steps of their θ, its CR2 variance clustered by key and its Satterthwaite df. */
  private record Clustered(double mean, double variance, double df, int clusters) {}

  private static Clustered clustered(List<Fit> fits) {
    int steps = fits.size();
    Map<String, Integer> index = new LinkedHashMap<>();
    fits.forEach(f -> f.keys().forEach(k -> index.putIfAbsent(k, index.size())));
    int g = index.size();
    double[] influence = new double[g];
    double[][] m = new double[g][g];
    double sum = 0;
    for (Fit f : fits) {
      double[] total = new double[f.arms()];
      int[] count = new int[f.arms()];
      for (int i = 0; i < f.values().length; i++) {
        total[f.arm()[i]] += f.values()[i];
        count[f.arm()[i]]++;
      }
      double rss = 0;
      for (int j = 0; j < f.arms(); j++) {
        if (count[j] < 2) {
          throw new IllegalArgumentException("a step needs at least two figures an arm, has " + count[j]);
        }
        sum += total[j] / count[j] / f.arms();
      }
      for (int i = 0; i < f.values().length; i++) {
        int j = f.arm()[i];
        double e = f.values()[i] - total[j] / count[j];
        rss += e * e;
        // a/√(1 − h), h = 1/n_arm: the weight and the CR2 adjustment of this step's arm.
        influence[index.get(f.keys().get(i))] += e * coefficient(f, count[j], steps);
      }
      double omega = rss / (f.values().length - f.arms());
      // y'My with M = Σ_p g_p g_p': per step and arm, coefficient²·(I − J/n_arm) on its clusters, under Ω.
      for (int i = 0; i < f.values().length; i++) {
        for (int l = 0; l < f.values().length; l++) {
          int j = f.arm()[i];
          if (f.arm()[l] == j) {
            double c = coefficient(f, count[j], steps);
            m[index.get(f.keys().get(i))][index.get(f.keys().get(l))] += omega * c * c * ((i == l ? 1 : 0)
                - 1.0 / count[j]);
          }
        }
      }
    }
    double variance = 0;
    double trace = 0;
    double squares = 0;
    for (int p = 0; p < g; p++) {
      variance += influence[p] * influence[p];
      trace += m[p][p];
      for (int r = 0; r < g; r++) {
        squares += m[p][r] * m[p][r];
      }
    }
    return new Clustered(sum / steps, variance, squares > 0 ? trace * trace / squares : Double.NaN, g);
  }

  /** {@code (1/|S|)·a/√(1 − h)} for a figure of an arm of {@code n}: {@code a = 1/(arms·n)}, {@code h = 1/n}. */
  private static double coefficient(Fit f, int n, int steps) {
    return 1.0 / (f.arms() * n) / Math.sqrt(1 - 1.0 / n) / steps;
  }
}
