package dev.benchlake.analysis.stats;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.analysis.integration.gauss.GaussIntegrator;
import org.apache.commons.math3.analysis.integration.gauss.GaussIntegratorFactory;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * How many replicates a run-level comparison needs, planned from the observed spread {@code s} of
 * one replicate's log figure, for the t-test of its {@link SampleDesign}: runs per group for two
 * independent groups ({@link SampleDesign#TWO_GROUPS}), pairs for a paired design
 * ({@link SampleDesign#PAIRED}, where a pair is one run of each side, so the count is also the runs
 * each side needs).
 *
 * <p>Method: exact power, not the normal or iterated-t approximation. Two groups: with equal
 * {@code n} and equal variances, Welch's test is the pooled two-sample t-test with
 * {@code df = 2n − 2} (the Welch–Satterthwaite df equals it when the sample variances are equal),
 * and {@code σ_d = s·√(2/n)}. Pairs: the one-sample t of the per-pair log ratios, {@code df = n − 1},
 * {@code σ_d = s/√n}. Either way the statistic is {@code d/se} with {@code d ~ N(δ, σ_d²)} and
 * {@code se = σ_d·V}, {@code V = √(χ²_df/df)} independent of {@code d}. Conditioning on V:
 *
 * <ul>
 *   <li>detecting a true ratio of {@code 1+M} ({@code δ = ln(1+M)}, two-sided at α):
 *       {@code power = E_V[Φ(λ − t·V) + Φ(−λ − t·V)]}, {@code λ = δ/σ_d},
 *       {@code t = t_{1−α/2, df}} — the noncentral-t power, {@code scipy.stats.nct};
 *   <li>showing equivalence within M (TOST at α) when the true ratio is 1:
 *       {@code power = E_V[max(0, 2Φ(L/σ_d − t·V) − 1)]}, {@code L = ln(1+M)},
 *       {@code t = t_{1−α, df}} (Owen's Q form; both one-sided tests share the same se).
 * </ul>
 *
 * <p>The expectation over V is a composite Gauss–Legendre integral (12 points a panel, panels at
 * most 0.05 wide) over {@code 1 ± 12/√(2·df)} (cut at 0), which holds all but about 10⁻¹² of V's
 * mass; the TOST integrand is cut where it
 * reaches 0. It agrees with scipy's {@code nct} and {@code quad} to better than 10⁻⁷. The
 * count is the smallest {@code n ≥ 2} whose power reaches the target, capped at
 * {@value #MAX_RUNS} (also the answer for a margin of 0, which no run count can meet).
 * Multiplicity is not in the plan: the level is α as given, so
 * for a corrected family of steps the count is a lower bound.
 *
 * <p>The same power at any true shift δ (not only the margin's, or 0) is what {@link #advise}
 * needs when the runs present already meet the margin's plan: to detect δ,
 * {@code E_V[Φ(δ/σ_d − t·V) + Φ(−δ/σ_d − t·V)]}; to show equivalence when the true log ratio is δ,
 * {@code E_V[max(0, Φ((L − δ)/σ_d − t·V) + Φ((L + δ)/σ_d − t·V) − 1)]}, which is positive exactly
 * below {@code V = L/(σ_d·t)}, as at δ = 0.
 */
public final class RunsNeeded {
  /** Beyond this the answer is "more runs than anyone will do". */
  public static final int MAX_RUNS = 100_000;
  private static final int PANELS = 48;
  private static final double PANEL_WIDTH = 0.05;
  private static final GaussIntegrator UNIT = new GaussIntegratorFactory().legendre(12, -1, 1);
  private static final NormalDistribution NORMAL = new NormalDistribution(null, 0, 1);
  private static final double SPREADS = 12;

  private RunsNeeded() {}

  /** Replicates for a two-sided test at α to detect a true ratio of {@code 1+margin} with {@code power}. */
  public static int toDetect(SampleDesign design, double sdLog, double margin, double alpha, double power) {
    check(sdLog, margin, alpha, power);
    if (margin == 0) {
      return MAX_RUNS;
    }
    return smallest(design, n -> powerToDetect(design, n, sdLog, margin, alpha), power, sdLog, Math.log1p(margin),
        alpha / 2, power);
  }

  /** Replicates for TOST at α to show equivalence within {@code margin} when the true ratio is 1. */
  public static int toShowEquivalence(SampleDesign design, double sdLog, double margin, double alpha, double power) {
    check(sdLog, margin, alpha, power);
    if (margin == 0) {
      return MAX_RUNS;
    }
    // The usual approximation for TOST at θ = 1 uses t_{1−β/2}: both bounds must be cleared.
    return smallest(design, n -> powerToShowEquivalence(design, n, sdLog, margin, alpha), power, sdLog,
        Math.log1p(margin), alpha, (1 + power) / 2);
  }

  /**
   * What more replicates would do for an inconclusive call whose replicates have spread
   * {@code sdLog}, observed log ratio {@code shiftLog} and {@code present} replicates (runs in the
   * smaller group, or pairs), never a count at or below {@code present}:
   *
   * <ol>
   *   <li>the smaller of {@link #toDetect} and {@link #toShowEquivalence} at the margin, when it
   *       is more than the runs present ({@link RunsAdvice.Basis#MARGIN});
   *   <li>else the runs for 80 % power at the observed shift δ: to show equivalence when
   *       |δ| &lt; ln(1+M), to detect it otherwise ({@link RunsAdvice.Basis#OBSERVED_EFFECT}), when
   *       that is more than the runs present;
   *   <li>else, when that plan reaches {@value #MAX_RUNS}, θ lies at the edge of the band
   *       ({@link RunsAdvice.Basis#EDGE_OF_MARGIN}); otherwise the runs present already have the
   *       power ({@link RunsAdvice.Basis#ALREADY_POWERED}).
   * </ol>
   */
  public static RunsAdvice advise(SampleDesign design, double sdLog, double shiftLog, int present, double margin,
      double alpha, double power) {
    int atMargin = Math.min(toDetect(design, sdLog, margin, alpha, power),
        toShowEquivalence(design, sdLog, margin, alpha, power));
    if (atMargin > present) {
      return new RunsAdvice(RunsAdvice.Basis.MARGIN, atMargin);
    }
    double shift = Math.abs(shiftLog);
    int observed = shift < Math.log1p(margin) ? toShowEquivalenceAt(design, sdLog, margin, shift, alpha, power)
        : toDetectShift(design, sdLog, shift, alpha, power);
    if (observed >= MAX_RUNS) {
      return new RunsAdvice(RunsAdvice.Basis.EDGE_OF_MARGIN, 0);
    }
    return observed > present ? new RunsAdvice(RunsAdvice.Basis.OBSERVED_EFFECT, observed)
        : new RunsAdvice(RunsAdvice.Basis.ALREADY_POWERED, 0);
  }

  /** Replicates for a two-sided test at α to detect a true log ratio of {@code shiftLog} with {@code power}. */
  public static int toDetectShift(SampleDesign design, double sdLog, double shiftLog, double alpha, double power) {
    check(sdLog, 0, alpha, power);
    double shift = Math.abs(shiftLog);
    if (shift == 0) {
      return MAX_RUNS;
    }
    return smallest(design, n -> powerToDetectShift(design, n, sdLog, shift, alpha), power, sdLog, shift, alpha / 2,
        power);
  }

  /**
   * Replicates for TOST at α to show equivalence within {@code margin} when the true log ratio is
   * {@code shiftLog}, inside the band, with {@code power}.
   */
  public static int toShowEquivalenceAt(SampleDesign design, double sdLog, double margin, double shiftLog, double alpha,
      double power) {
    check(sdLog, margin, alpha, power);
    double room = Math.log1p(margin) - Math.abs(shiftLog);
    if (!(room > 0)) {
      return MAX_RUNS;
    }
    // Away from 0 one bound dominates: the approximation takes the power's own quantile.
    return smallest(design, n -> powerToShowEquivalence(design, n, sdLog, margin, alpha, shiftLog), power, sdLog, room,
        alpha, shiftLog == 0 ? (1 + power) / 2 : power);
  }

  /** Exact power of the two-sided test at α, {@code n} replicates, true ratio {@code 1+margin}. */
  public static double powerToDetect(SampleDesign design, int n, double sdLog, double margin, double alpha) {
    return powerToDetectShift(design, n, sdLog, Math.log1p(margin), alpha);
  }

  /** Exact power of the two-sided test at α, {@code n} replicates, true log ratio {@code shiftLog}. */
  public static double powerToDetectShift(SampleDesign design, int n, double sdLog, double shiftLog, double alpha) {
    int df = design.df(n);
    if (df < 1) {
      // Two crossover pairs: the mean and the set take both, no test is possible.
      return 0;
    }
    if (!(sdLog > 0)) {
      return 1;
    }
    double lambda = shiftLog / design.sdOfEstimate(sdLog, n);
    double t = new TDistribution(null, df).inverseCumulativeProbability(1 - alpha / 2);
    return expectationOverV(df, Double.POSITIVE_INFINITY,
        v -> NORMAL.cumulativeProbability(lambda - t * v) + NORMAL.cumulativeProbability(-lambda - t * v));
  }

  /** Exact power of TOST at α within {@code margin}, {@code n} replicates, true ratio 1. */
  public static double powerToShowEquivalence(SampleDesign design, int n, double sdLog, double margin, double alpha) {
    return powerToShowEquivalence(design, n, sdLog, margin, alpha, 0);
  }

  /** Exact power of TOST at α within {@code margin}, {@code n} replicates, true log ratio {@code shiftLog}. */
  public static double powerToShowEquivalence(SampleDesign design, int n, double sdLog, double margin, double alpha,
      double shiftLog) {
    int df = design.df(n);
    if (df < 1) {
      return 0;
    }
    if (!(sdLog > 0)) {
      return shiftLog == 0 || Math.abs(shiftLog) < Math.log1p(margin) ? 1 : 0;
    }
    double sd = design.sdOfEstimate(sdLog, n);
    double scaled = Math.log1p(margin) / sd;
    double shift = shiftLog / sd;
    double t = new TDistribution(null, df).inverseCumulativeProbability(1 - alpha);
    // Beyond v = scaled/t the acceptance region is empty: integrate the smooth part only.
    return expectationOverV(df, scaled / t, v -> shiftLog == 0 ? 2 * NORMAL.cumulativeProbability(scaled - t * v) - 1
        : Math.max(0, NORMAL.cumulativeProbability(scaled - shift - t * v)
            + NORMAL.cumulativeProbability(scaled + shift - t * v) - 1));
  }

  /**
   * Starts from the iterated-t approximation, then finds the exact smallest n: steps of 1, 2, 4, …
   * away from the guess until they bracket it, then bisection (power grows with n). A good guess
   * costs two or three power evaluations, a poor one (far from the margin's plan) a few dozen even
   * where the answer is tens of thousands.
   */
  private static int smallest(SampleDesign design, java.util.function.IntToDoubleFunction powerAt, double target,
      double sdLog, double delta, double alphaTail, double powerQuantile) {
    if (!(sdLog > 0)) {
      return 2;
    }
    int guess = Math.max(2, Math.min(MAX_RUNS, approximate(design, sdLog, delta, alphaTail, powerQuantile)));
    // Invariant once bracketed: power(low) < target (low = 1 stands for "below 2") and power(high) >= target.
    int low;
    int high;
    if (powerAt.applyAsDouble(guess) >= target) {
      high = guess;
      low = guess;
      for (int step = 1; ; step *= 2) {
        low = Math.max(1, high - step);
        if (low == 1 || powerAt.applyAsDouble(low) < target) {
          break;
        }
        high = low;
      }
    } else {
      low = guess;
      for (int step = 1; ; step *= 2) {
        high = (int) Math.min(MAX_RUNS, (long) low + step);
        if (powerAt.applyAsDouble(high) >= target) {
          break;
        }
        if (high == MAX_RUNS) {
          return MAX_RUNS;
        }
        low = high;
      }
    }
    while (high - low > 1) {
      int mid = low + (high - low) / 2;
      if (powerAt.applyAsDouble(mid) >= target) {
        high = mid;
      } else {
        low = mid;
      }
    }
    return Math.max(2, high);
  }

  /**
   * {@code k = (t_{1−a, df} + t_{q, df})·s/δ}, {@code n = 2k²} runs per group or {@code k²} pairs
   * ({@link SampleDesign#replicatesFor}), iterated a few times on the design's df.
   */
  private static int approximate(SampleDesign design, double sdLog, double delta, double alphaTail,
      double powerQuantile) {
    double n = 2;
    for (int i = 0; i < 8; i++) {
      TDistribution t = new TDistribution(null, Math.max(2, design.df((int) Math.ceil(n))));
      double k = (t.inverseCumulativeProbability(1 - alphaTail) + t.inverseCumulativeProbability(powerQuantile)) * sdLog / delta;
      n = Math.min(MAX_RUNS, Math.max(2, design.replicatesFor(k)));
    }
    return (int) Math.ceil(n);
  }

  /** {@code E[h(V); V ≤ upper]} for {@code V = √(χ²_df/df)}, by composite Gauss–Legendre. */
  private static double expectationOverV(int df, double upper, DoubleUnaryOperator h) {
    ChiSquaredDistribution chi2 = new ChiSquaredDistribution(null, df);
    // V ≈ N(1, 1/(2·df)); ±12 of those SDs hold all but ~1e-12 of V's mass even where V is
    // skewed (small df, where the lower end is 0 anyway), and need no iterative χ² quantile.
    double spread = SPREADS / Math.sqrt(2.0 * df);
    double lo = Math.max(0, 1 - spread);
    double hi = Math.min(upper, 1 + spread);
    if (!(hi > lo)) {
      return 0;
    }
    // At a small df the range is wide (0 to 9.5 at df = 1, two pairs) and the integrand can step
    // from 1 to 0 within 1/t_{1−α/2, df} (0.016 at α = 0.01): panels no wider than PANEL_WIDTH.
    int panels = Math.max(PANELS, (int) Math.ceil((hi - lo) / PANEL_WIDTH));
    double width = (hi - lo) / panels;
    double sum = 0;
    for (int p = 0; p < panels; p++) {
      double a = lo + p * width;
      for (int i = 0; i < UNIT.getNumberOfPoints(); i++) {
        double v = a + (UNIT.getPoint(i) + 1) / 2 * width;
        // Density of V: f_χ²(df·v²)·2·df·v. Through logDensity: commons-math 3.6.1's
        // GammaDistribution.density is off by up to ~50 % left of the mode at large shapes
        // (e.g. χ²₂₉₆ at 250), its logDensity is right (checked against scipy).
        double density = Math.exp(chi2.logDensity(df * v * v)) * 2 * df * v;
        sum += UNIT.getWeight(i) * width / 2 * density * h.applyAsDouble(v);
      }
    }
    return Math.min(1, Math.max(0, sum));
  }

  private static void check(double sdLog, double margin, double alpha, double power) {
    if (!(sdLog >= 0) || Double.isInfinite(sdLog) || !(margin >= 0) || Double.isInfinite(margin) || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1)) {
      throw new IllegalArgumentException("need sdLog ≥ 0, margin ≥ 0, alpha and power in (0, 1)");
    }
  }
}
