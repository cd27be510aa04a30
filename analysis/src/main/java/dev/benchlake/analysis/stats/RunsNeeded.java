package dev.benchlake.analysis.stats;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.analysis.integration.gauss.GaussIntegrator;
import org.apache.commons.math3.analysis.integration.gauss.GaussIntegratorFactory;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * How many runs per group a run-level comparison needs, planned from the observed between-run SD
 * {@code s} of the log figures, for a two-sample t-test with {@code n} runs in each group.
 *
 * <p>Method: exact power, not the normal or iterated-t approximation. With equal {@code n} and
 * equal variances, Welch's test is the pooled two-sample t-test with {@code df = 2n − 2} (the
 * Welch–Satterthwaite df equals it when the sample variances are equal), so its statistic is
 * {@code d/se} with {@code d ~ N(δ, σ_d²)}, {@code σ_d = s·√(2/n)}, and
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
 * <p>The expectation over V is a composite Gauss–Legendre integral over {@code 1 ± 12/√(2·df)}
 * (cut at 0), which holds all but about 10⁻¹² of V's mass; the TOST integrand is cut where it
 * reaches 0. It agrees with scipy's {@code nct} and {@code quad} to better than 10⁻⁷. The run
 * count is the smallest {@code n ≥ 2} whose power reaches the target, capped at
 * {@value #MAX_RUNS} (also the answer for a margin of 0, which no run count can meet).
 * Multiplicity is not in the plan: the level is α as given, so
 * for a corrected family of steps the count is a lower bound.
 */
public final class RunsNeeded {
  /** Beyond this the answer is "more runs than anyone will do". */
  public static final int MAX_RUNS = 100_000;
  private static final int PANELS = 48;
  private static final GaussIntegrator UNIT = new GaussIntegratorFactory().legendre(12, -1, 1);
  private static final NormalDistribution NORMAL = new NormalDistribution(null, 0, 1);
  private static final double SPREADS = 12;

  private RunsNeeded() {}

  /** Runs per group for a two-sided test at α to detect a true ratio of {@code 1+margin} with {@code power}. */
  public static int toDetect(double sdLog, double margin, double alpha, double power) {
    check(sdLog, margin, alpha, power);
    if (margin == 0) {
      return MAX_RUNS;
    }
    return smallest(n -> powerToDetect(n, sdLog, margin, alpha), power, sdLog, Math.log1p(margin), alpha / 2, power);
  }

  /** Runs per group for TOST at α to show equivalence within {@code margin} when the true ratio is 1. */
  public static int toShowEquivalence(double sdLog, double margin, double alpha, double power) {
    check(sdLog, margin, alpha, power);
    if (margin == 0) {
      return MAX_RUNS;
    }
    // The usual approximation for TOST at θ = 1 uses t_{1−β/2}: both bounds must be cleared.
    return smallest(n -> powerToShowEquivalence(n, sdLog, margin, alpha), power, sdLog, Math.log1p(margin), alpha,
        (1 + power) / 2);
  }

  /** Exact power of the two-sided test at α, {@code n} runs per group, true ratio {@code 1+margin}. */
  public static double powerToDetect(int n, double sdLog, double margin, double alpha) {
    int df = 2 * n - 2;
    if (!(sdLog > 0)) {
      return 1;
    }
    double lambda = Math.log1p(margin) / (sdLog * Math.sqrt(2.0 / n));
    double t = new TDistribution(null, df).inverseCumulativeProbability(1 - alpha / 2);
    return expectationOverV(df, Double.POSITIVE_INFINITY,
        v -> NORMAL.cumulativeProbability(lambda - t * v) + NORMAL.cumulativeProbability(-lambda - t * v));
  }

  /** Exact power of TOST at α within {@code margin}, {@code n} runs per group, true ratio 1. */
  public static double powerToShowEquivalence(int n, double sdLog, double margin, double alpha) {
    int df = 2 * n - 2;
    if (!(sdLog > 0)) {
      return 1;
    }
    double scaled = Math.log1p(margin) / (sdLog * Math.sqrt(2.0 / n));
    double t = new TDistribution(null, df).inverseCumulativeProbability(1 - alpha);
    // Beyond v = scaled/t the acceptance region is empty: integrate the smooth part only.
    return expectationOverV(df, scaled / t, v -> 2 * NORMAL.cumulativeProbability(scaled - t * v) - 1);
  }

  /** Starts from the iterated-t approximation, then walks to the exact smallest n. */
  private static int smallest(java.util.function.IntToDoubleFunction powerAt, double target, double sdLog, double delta,
      double alphaTail, double powerQuantile) {
    if (!(sdLog > 0)) {
      return 2;
    }
    int n = approximate(sdLog, delta, alphaTail, powerQuantile);
    while (n > 2 && powerAt.applyAsDouble(n - 1) >= target) {
      n--;
    }
    while (n < MAX_RUNS && powerAt.applyAsDouble(n) < target) {
      n++;
    }
    return n;
  }

  /** {@code n = 2·((t_{1−a, df} + t_{q, df})·s/δ)²}, iterated a few times on df = 2n − 2. */
  private static int approximate(double sdLog, double delta, double alphaTail, double powerQuantile) {
    double n = 2;
    for (int i = 0; i < 8; i++) {
      TDistribution t = new TDistribution(null, Math.max(2, 2 * n - 2));
      double k = (t.inverseCumulativeProbability(1 - alphaTail) + t.inverseCumulativeProbability(powerQuantile)) * sdLog / delta;
      n = Math.min(MAX_RUNS, Math.max(2, 2 * k * k));
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
    double width = (hi - lo) / PANELS;
    double sum = 0;
    for (int p = 0; p < PANELS; p++) {
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
