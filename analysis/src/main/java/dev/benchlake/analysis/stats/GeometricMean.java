package dev.benchlake.analysis.stats;

/**
 * The geometric mean, the average of ratios: trend's per-version figure over repeats and its group
 * means. (Ratios of geometric means with their interval are {@link LogRatio}'s.)
 */
public final class GeometricMean {
  private GeometricMean() {}

  /**
   * The geometric mean of positive values, as {@code x₀·exp(mean(ln(xᵢ/x₀)))}: the same number,
   * but exactly {@code x₀} for one value or equal values (no round trip through a logarithm).
   */
  public static double of(double[] values) {
    requirePositive(values);
    double first = values[0];
    double sum = 0;
    for (double v : values) {
      sum += Math.log(v / first);
    }
    return first * Math.exp(sum / values.length);
  }

  /**
   * The interval of the geometric mean of repeats at {@code confidence}: the one-sample t interval
   * of their logs, exponentiated ({@code exp(mean ± t_{(1+c)/2, n−1}·s/√n)}, scipy's
   * {@code ttest_1samp(log x, 0).confidence_interval(c)}). It is what a series chart draws at a date
   * with repeats: how far the level of that date may lie from its geometric mean.
   *
   * @param values at least two positive, finite values
   */
  public static Interval interval(double[] values, double confidence) {
    double[] logs = LogScaleT.logs(values, "a geometric mean's interval");
    double mean = LogScaleT.mean(logs);
    double se = Math.sqrt(LogScaleT.variance(logs, mean) / logs.length);
    return new LogScaleT(mean, se, logs.length - 1).interval(confidence);
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
