package dev.benchlake.analysis.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Welch's unequal-variance t-test, two-sided, candidate minus baseline:
 * {@code t = (mean_c − mean_b)/√(s_c²/n_c + s_b²/n_b)} with sample variances ({@code ddof = 1}),
 * Welch–Satterthwaite degrees of freedom
 * {@code df = (s_c²/n_c + s_b²/n_b)² / ((s_c²/n_c)²/(n_c − 1) + (s_b²/n_b)²/(n_b − 1))} and
 * {@code p = 2·P(T_df ≤ −|t|)}; this is {@code scipy.stats.ttest_ind(candidate, baseline,
 * equal_var=False)}.
 *
 * <p>Undefined (every field NaN) when a sample has fewer than two values or both variances are 0,
 * where scipy returns NaN too.
 */
public final class WelchT {
  /** @param t the statistic; @param df Welch–Satterthwaite degrees of freedom; @param p two-sided */
  public record Result(double t, double df, double p) {
    public static final Result UNDEFINED = new Result(Double.NaN, Double.NaN, Double.NaN);
  }

  private WelchT() {}

  public static Result test(Moments candidate, Moments baseline) {
    return test(candidate.n() < 2 ? Double.NaN : candidate.mean(), candidate.n() < 2 ? Double.NaN : candidate.sampleVariance(),
        candidate.n(), baseline.n() < 2 ? Double.NaN : baseline.mean(),
        baseline.n() < 2 ? Double.NaN : baseline.sampleVariance(), baseline.n());
  }

  /** The test from each sample's mean, sample variance ({@code ddof = 1}) and size. */
  public static Result test(double meanC, double varianceC, long nC, double meanB, double varianceB, long nB) {
    if (nC < 2 || nB < 2) {
      return Result.UNDEFINED;
    }
    double a = varianceC / nC;
    double b = varianceB / nB;
    double se2 = a + b;
    if (!(se2 > 0)) {
      return Result.UNDEFINED;
    }
    double t = (meanC - meanB) / Math.sqrt(se2);
    double df = se2 * se2 / (a * a / (nC - 1) + b * b / (nB - 1));
    double p = 2 * new TDistribution(null, df).cumulativeProbability(-Math.abs(t));
    return new Result(t, df, Math.min(1.0, p));
  }
}
