package dev.benchlake.analysis.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * The ratio of the geometric means of two small samples of positive per-run figures (e.g. the
 * QPS of each run of a version against the runs of the base version), with a 95 % confidence
 * interval and a two-sided test, both on the log scale.
 *
 * <p>With {@code x = ln(value)}: {@code ratio = exp(mean(x_c) − mean(x_b))}. The interval is
 * Welch's: {@code exp(d ± t_{0.975, df}·se)} with {@code d = mean(x_c) − mean(x_b)},
 * {@code se = √(s_c²/n_c + s_b²/n_b)} (sample variances, {@code ddof = 1}) and the
 * Welch–Satterthwaite {@code df}; the p-value is {@link WelchT}'s on the logs. Working on logs
 * makes a halving and a doubling equally large, keeps the interval of a ratio positive, and suits
 * throughputs and latencies, whose run-to-run noise is multiplicative. This is scipy's
 * {@code ttest_ind(log(c), log(b), equal_var=False)} and its {@code confidence_interval()},
 * exponentiated.
 *
 * <p>Undefined parts are NaN: the interval and p need at least two runs on each side; when every
 * run of both sides has the same value the interval is the ratio itself and p is NaN.
 */
public final class GeometricMeanRatio {
  private static final double CONFIDENCE = 0.95;

  /** @param ratio geometric mean of c / geometric mean of b; @param p two-sided */
  public record Result(double ratio, Interval ci95, double p) {}

  private GeometricMeanRatio() {}

  /**
   * The geometric mean of positive values, as {@code x₀·exp(mean(ln(xᵢ/x₀)))}: the same number,
   * but exactly {@code x₀} for one value or equal values (no round trip through a logarithm).
   */
  public static double geometricMean(double[] values) {
    requirePositive(values);
    double first = values[0];
    double sum = 0;
    for (double v : values) {
      sum += Math.log(v / first);
    }
    return first * Math.exp(sum / values.length);
  }

  /** Candidate against baseline; every value must be positive and finite. */
  public static Result of(double[] candidate, double[] baseline) {
    requirePositive(candidate);
    requirePositive(baseline);
    double meanC = meanOfLogs(candidate);
    double meanB = meanOfLogs(baseline);
    double ratio = Math.exp(meanC - meanB);
    int nC = candidate.length;
    int nB = baseline.length;
    if (nC < 2 || nB < 2) {
      return new Result(ratio, Interval.UNBOUNDED, Double.NaN);
    }
    double varianceC = varianceOfLogs(candidate, meanC);
    double varianceB = varianceOfLogs(baseline, meanB);
    double se2 = varianceC / nC + varianceB / nB;
    if (!(se2 > 0)) {
      return new Result(ratio, new Interval(ratio, ratio), Double.NaN);
    }
    WelchT.Result welch = WelchT.test(meanC, varianceC, nC, meanB, varianceB, nB);
    double t = new TDistribution(null, welch.df()).inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
    double half = t * Math.sqrt(se2);
    return new Result(ratio, new Interval(Math.exp(meanC - meanB - half), Math.exp(meanC - meanB + half)), welch.p());
  }

  private static double meanOfLogs(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += Math.log(v);
    }
    return sum / values.length;
  }

  private static double varianceOfLogs(double[] values, double mean) {
    double sum = 0;
    for (double v : values) {
      double d = Math.log(v) - mean;
      sum += d * d;
    }
    return sum / (values.length - 1);
  }

  private static void requirePositive(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    for (double v : values) {
      if (!(v > 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException("values must be positive and finite, not " + v);
      }
    }
  }
}
