package dev.benchlake.analysis.stats;

import java.util.Arrays;

/**
 * The change θ from pairs of runs, estimated so that one disturbed pair cannot overturn it: the
 * Huber M-estimate of the crossover model of {@link CrossoverLogRatio} (or of the plain paired
 * model where the pairs do not swap CPU sets), with a t reference. A duet round that something
 * else on the machine disturbed moves its log ratio by 0.15–0.25 ({@code docs/designs.md}), ten
 * times a step's per-pair SD; least squares gives that round a full vote, so one such round
 * widens the interval and shifts θ enough to undo the verdicts of a whole study. Here a pair's
 * pull on θ is capped at {@value #K} scale units.
 *
 * <p>With {@code d_i = ln(candidate_i/baseline_i)} and, where the sets are fitted, the pairs split
 * by assignment into two groups (else one group, {@code p} = the groups' count):
 *
 * <ul>
 *   <li><b>Scale</b> {@code s}: the median of {@code |d_i − d_j|} over the pairs {@code i < j} of the
 *       same group, divided by {@code √2·Φ⁻¹(0.75)} (Shamos' estimator, pooled over the groups), so
 *       that {@code s} estimates the per-pair SD for normal noise, is unmoved by the set's effect,
 *       and one wild pair changes only a minority of the differences.
 *   <li><b>Location</b> {@code μ_g} of each group: the root of {@code Σ_{i∈g} ψ((d_i − μ_g)/s) = 0},
 *       {@code ψ(u) = max(−k, min(k, u))}, {@code k = }{@value #K} (95 % efficiency at the normal);
 *       {@link #meanLogDifference()} {@code = ln θ̂ = (μ₁ + μ₂)/2} with the sets fitted, {@code μ}
 *       without; {@link #setEffectLog()} {@code = (μ₁ − μ₂)/2}. With two groups this is the Huber
 *       regression on the columns {@code [1, x]} of {@link CrossoverLogRatio}: its two estimating
 *       equations are the two groups'.
 *   <li><b>Standard error</b>: Huber's sandwich with his small-sample factor (Huber 1981, §7.6;
 *       statsmodels' {@code RLM} covariance {@code H1}), {@code se² = K²·(Σψ_i²/(n − p))/(Σψ'_i/n)²·s²·h},
 *       {@code K = 1 + (p/n)·(1 − B)/B}, {@code B = Σψ'_i/n} the share of pairs within {@code k·s},
 *       {@code h = (1/n₁ + 1/n₂)/4} with the sets fitted, {@code 1/n} without. Where no pair lies
 *       beyond {@code k·s}, {@code B = 1} and this is exactly least squares' standard error.
 *   <li><b>Reference</b>: t with {@code df = n − p}, as for least squares ({@link LogScaleT}: the
 *       interval, the difference test and TOST); {@code SequentialLooksCalibrationTest} and the
 *       study's own calibration ({@code RobustLooksCalibrationTest}) prove its error rates.
 * </ul>
 *
 * <p>Where {@code s = 0} (more than half the within-group differences are 0) no pair can be told
 * to be far off, and nothing is capped: the fit is least squares. Where every pair lies beyond
 * {@code k·s} ({@code B = 0}) the standard error is undefined and both p-values are NaN, as for
 * runs without variation. {@code make_robust_reference.py} computes the same with numpy and
 * scipy's {@code brentq}, independently.
 *
 * @param pairs n
 * @param pairsOnSetOne n₁ with the sets fitted; 0 without
 * @param meanLogDifference {@code ln θ̂}
 * @param setEffectLog {@code (μ₁ − μ₂)/2} with the sets fitted; 0 without
 * @param scaleLog {@code s}
 * @param seLog the standard error of {@code ln θ̂}
 * @param df {@code n − p}
 */
public record HuberLogRatio(int pairs, int pairsOnSetOne, double meanLogDifference, double setEffectLog,
    double scaleLog, double seLog, int df) implements PairedTEffect {

  /** Huber's tuning constant: 95 % of least squares' efficiency for normal noise. */
  public static final double K = 1.345;
  /** As the report's methods name the statistic. */
  public static final String NAME = "Huber M-estimate (k = 1.345, Shamos scale) with a t reference";

  /** {@code √2·Φ⁻¹(0.75)}: the median of {@code |X − Y|} for two independent standard normals. */
  private static final double SHAMOS_NORMAL = Math.sqrt(2) * 0.6744897501960817;

  /**
   * With the sets fitted when {@code baselineOnSetOne} is given and {@link CrossoverLogRatio#fits},
   * else the plain paired model.
   *
   * @param logRatios {@code d_i}, at least two, finite
   * @param baselineOnSetOne for each pair, whether its baseline ran on set one; null without sets
   */
  public static HuberLogRatio of(double[] logRatios, boolean[] baselineOnSetOne) {
    if (logRatios.length < 2) {
      throw new IllegalArgumentException("pairs need at least two log ratios, have " + logRatios.length);
    }
    CrossoverLogRatio.requirePairs(logRatios, baselineOnSetOne);
    boolean sets = baselineOnSetOne != null && CrossoverLogRatio.fits(baselineOnSetOne);
    double[][] groups = sets ? split(logRatios, baselineOnSetOne) : new double[][] {logRatios.clone()};
    int n = logRatios.length;
    int p = groups.length;
    double s = shamos(groups);
    double cap = s > 0 ? K * s : Double.POSITIVE_INFINITY;
    double[] mu = new double[p];
    double sumPsiSq = 0; // Σ (s·ψ_i)²: ψ on the log scale, so that s = 0 needs no division
    int inside = 0;
    for (int g = 0; g < p; g++) {
      mu[g] = location(groups[g], cap);
      for (double d : groups[g]) {
        double r = d - mu[g];
        double clipped = Math.max(-cap, Math.min(cap, r));
        sumPsiSq += clipped * clipped;
        inside += Math.abs(r) <= cap ? 1 : 0;
      }
    }
    double b = (double) inside / n;
    double h = sets ? (1.0 / groups[0].length + 1.0 / groups[1].length) / 4 : 1.0 / n;
    double factor = 1 + (double) p / n * (1 - b) / b;
    double se = inside == 0 ? Double.NaN : factor * Math.sqrt(sumPsiSq / (n - p) * h) / b;
    double mean = sets ? (mu[0] + mu[1]) / 2 : mu[0];
    double setEffect = sets ? (mu[0] - mu[1]) / 2 : 0;
    return new HuberLogRatio(n, sets ? groups[0].length : 0, mean, setEffect, s, se, n - p);
  }

  /** The pairs with the baseline on set one, then those on set two. */
  private static double[][] split(double[] logRatios, boolean[] baselineOnSetOne) {
    int one = 0;
    for (boolean b : baselineOnSetOne) {
      one += b ? 1 : 0;
    }
    double[][] groups = {new double[one], new double[logRatios.length - one]};
    int[] next = new int[2];
    for (int i = 0; i < logRatios.length; i++) {
      int g = baselineOnSetOne[i] ? 0 : 1;
      groups[g][next[g]++] = logRatios[i];
    }
    return groups;
  }

  /** Shamos' scale, pooled over the groups: median within-group |d_i − d_j| over √2·Φ⁻¹(0.75). */
  static double shamos(double[][] groups) {
    int count = 0;
    for (double[] g : groups) {
      count += g.length * (g.length - 1) / 2;
    }
    double[] differences = new double[count];
    int next = 0;
    for (double[] g : groups) {
      for (int i = 0; i < g.length; i++) {
        for (int j = i + 1; j < g.length; j++) {
          differences[next++] = Math.abs(g[i] - g[j]);
        }
      }
    }
    Arrays.sort(differences);
    int mid = count / 2;
    double median = count % 2 == 1 ? differences[mid] : (differences[mid - 1] + differences[mid]) / 2;
    return median / SHAMOS_NORMAL;
  }

  /**
   * The root μ of {@code Σ clip(d_i − μ, ±cap) = 0}: the sum falls monotonically in μ, from
   * positive below the smallest {@code d_i} to negative above the largest. Where every pair is
   * capped around the root the sum is 0 over a whole interval (an even group whose middle gap is
   * wider than {@code 2·cap}); μ is then that interval's midpoint, as a median is, so that moving
   * every {@code d_i} by c moves μ by c ({@code LookPreCheck} relies on it). Each end is found by
   * bisection to the last bit.
   */
  private static double location(double[] d, double cap) {
    double min = Arrays.stream(d).min().orElseThrow();
    double max = Arrays.stream(d).max().orElseThrow();
    if (min == max) {
      return min;
    }
    return (edge(d, cap, min, max, true) + edge(d, cap, min, max, false)) / 2;
  }

  /** The lowest μ with a sum ≤ 0 ({@code lower}), or the highest with a sum ≥ 0, by bisection in [lo, hi]. */
  private static double edge(double[] d, double cap, double lo, double hi, boolean lower) {
    while (true) {
      double mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) {
        return mid;
      }
      double sum = clippedSum(d, mid, cap);
      if (lower ? sum > 0 : sum >= 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
  }

  private static double clippedSum(double[] d, double mu, double cap) {
    double sum = 0;
    for (double v : d) {
      sum += Math.max(-cap, Math.min(cap, v - mu));
    }
    return sum;
  }

  /** Whether the CPU sets were fitted. */
  public boolean setsFitted() {
    return pairsOnSetOne > 0;
  }

  /** The set's effect on the ratio, {@code exp(2·setEffectLog)}, as {@link CrossoverLogRatio#setRatio}. */
  public double setRatio() {
    return Math.exp(2 * setEffectLog);
  }

  /**
   * What one more pair adds: the per-pair SD the standard error implies, {@code se/√h}, which is
   * what {@link RunsNeeded} plans with (least squares' residual SD where nothing was capped).
   */
  @Override
  public double betweenRunSdLog() {
    double h = setsFitted() ? (1.0 / pairsOnSetOne + 1.0 / (pairs - pairsOnSetOne)) / 4 : 1.0 / pairs;
    return seLog / Math.sqrt(h);
  }

  @Override
  public int replicates() {
    return pairs;
  }

  @Override
  public RunsAdvice runsToDecide(double alpha, double margin, double power) {
    return RunsNeeded.advise(setsFitted() ? SampleDesign.CROSSOVER : SampleDesign.PAIRED, betweenRunSdLog(),
        meanLogDifference, pairs, margin, alpha, power);
  }
}
