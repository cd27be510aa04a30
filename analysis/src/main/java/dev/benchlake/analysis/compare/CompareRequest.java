package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.BootstrapMedianRatio;
import java.util.List;

/**
 * What to compare and how ({@code benchlake compare}'s options).
 *
 * @param baseline run selector of the baseline, e.g. {@code os=linux}
 * @param candidate run selector of the candidate
 * @param steps the steps to compare; empty: every step present in both groups
 * @param alpha significance level, in (0, 0.5): equivalence uses the 1 − 2α interval
 * @param margin practical-equivalence margin M, a fraction in (0, 1): the band is [1/(1+M), 1+M]
 * @param thresholdNs count tasks faster than this; null: do not
 */
public record CompareRequest(String baseline, String candidate, List<String> steps, OutlierPolicy outliers,
    double alpha, double margin, Long thresholdNs, Correction correction, Tuning tuning) {
  public static final double DEFAULT_ALPHA = 0.05;
  public static final double DEFAULT_MARGIN = 0.05;

  /**
   * Engine settings with sound defaults, exposed for tests and benchmarks.
   *
   * @param partitions partitions that sort the latencies; 0: twice the default parallelism, at
   *     least the input's partitions ({@link dev.benchlake.analysis.engine.SortedLatencies#sort})
   * @param seed of the bootstrap and of the Hodges–Lehmann sample
   * @param hodgesLehmannExactLimit largest group for which Hodges–Lehmann uses every pair; larger
   *     groups use a random sample of this many tasks each
   */
  public record Tuning(int partitions, long seed, int bootstrapResamples, int hodgesLehmannExactLimit) {
    public static final Tuning DEFAULT = new Tuning(0, BootstrapMedianRatio.DEFAULT_SEED,
        BootstrapMedianRatio.DEFAULT_RESAMPLES, 100_000);

    public Tuning withPartitions(int count) {
      return new Tuning(count, seed, bootstrapResamples, hodgesLehmannExactLimit);
    }

    public Tuning withHodgesLehmannExactLimit(int limit) {
      return new Tuning(partitions, seed, bootstrapResamples, limit);
    }
  }

  public CompareRequest {
    steps = List.copyOf(steps);
    if (!(alpha > 0 && alpha < 0.5)) {
      throw new IllegalArgumentException("alpha must be in (0, 0.5), not " + alpha);
    }
    if (!(margin > 0 && margin < 1)) {
      throw new IllegalArgumentException("margin must be in (0, 1), not " + margin);
    }
  }

  /** Baseline against candidate with every default. */
  public static CompareRequest of(String baseline, String candidate) {
    return new CompareRequest(baseline, candidate, List.of(), OutlierPolicy.NONE, DEFAULT_ALPHA, DEFAULT_MARGIN, null,
        Correction.HOLM, Tuning.DEFAULT);
  }

  public CompareRequest withSteps(List<String> only) {
    return new CompareRequest(baseline, candidate, only, outliers, alpha, margin, thresholdNs, correction, tuning);
  }

  public CompareRequest withOutliers(OutlierPolicy policy) {
    return new CompareRequest(baseline, candidate, steps, policy, alpha, margin, thresholdNs, correction, tuning);
  }

  public CompareRequest withAlpha(double level) {
    return new CompareRequest(baseline, candidate, steps, outliers, level, margin, thresholdNs, correction, tuning);
  }

  public CompareRequest withMargin(double fraction) {
    return new CompareRequest(baseline, candidate, steps, outliers, alpha, fraction, thresholdNs, correction, tuning);
  }

  public CompareRequest withThresholdNs(Long threshold) {
    return new CompareRequest(baseline, candidate, steps, outliers, alpha, margin, threshold, correction, tuning);
  }

  public CompareRequest withCorrection(Correction method) {
    return new CompareRequest(baseline, candidate, steps, outliers, alpha, margin, thresholdNs, method, tuning);
  }

  public CompareRequest withTuning(Tuning settings) {
    return new CompareRequest(baseline, candidate, steps, outliers, alpha, margin, thresholdNs, correction, settings);
  }
}
