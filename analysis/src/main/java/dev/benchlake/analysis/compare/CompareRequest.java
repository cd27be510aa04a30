package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.BootstrapMedianRatio;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.List;

/**
 * What to compare and how ({@code benchlake compare}'s options).
 *
 * @param selectors the run selectors of the baseline and the candidate, e.g. {@code os=linux}
 * @param steps the steps to compare; empty: every step present in both groups
 * @param settings α, the margin and the correction ({@link StatisticsSettings} owns their ranges)
 * @param thresholdNs count tasks faster than this; null: do not
 * @param pairBy the labels that pair a baseline run with a candidate run ({@code --pair-by round});
 *     empty: duet runs are paired by their round, other runs not at all
 *     ({@link dev.benchlake.analysis.report.Pairing})
 */
public record CompareRequest(Sides<String> selectors, List<String> steps, OutlierPolicy outliers,
    StatisticsSettings settings, Long thresholdNs, Tuning tuning, List<String> pairBy) {

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
    pairBy = List.copyOf(pairBy);
  }

  /** Baseline against candidate with every default. */
  public static CompareRequest of(String baseline, String candidate) {
    return new CompareRequest(Sides.of(baseline, candidate), List.of(), OutlierPolicy.NONE, StatisticsSettings.DEFAULTS,
        null, Tuning.DEFAULT, List.of());
  }

  public CompareRequest withSteps(List<String> only) {
    return new CompareRequest(selectors, only, outliers, settings, thresholdNs, tuning, pairBy);
  }

  public CompareRequest withOutliers(OutlierPolicy policy) {
    return new CompareRequest(selectors, steps, policy, settings, thresholdNs, tuning, pairBy);
  }

  public CompareRequest withSettings(StatisticsSettings statistics) {
    return new CompareRequest(selectors, steps, outliers, statistics, thresholdNs, tuning, pairBy);
  }

  public CompareRequest withThresholdNs(Long threshold) {
    return new CompareRequest(selectors, steps, outliers, settings, threshold, tuning, pairBy);
  }

  /** Pair the runs by these labels ({@code --pair-by}); empty: by a duet's round, or not at all. */
  public CompareRequest withPairBy(List<String> labels) {
    return new CompareRequest(selectors, steps, outliers, settings, thresholdNs, tuning, labels);
  }

  public CompareRequest withTuning(Tuning engine) {
    return new CompareRequest(selectors, steps, outliers, settings, thresholdNs, engine, pairBy);
  }
}
