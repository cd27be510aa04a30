package dev.benchlake.analysis.stats;

/**
 * The one rule that picks a paired θ, for the comparison, its a/a control and the study's look
 * pre-check alike: where the pairs swap CPU sets with at least {@link
 * CrossoverLogRatio#MIN_PAIRS_PER_SET} pairs each way, the set is fitted ({@link CrossoverLogRatio});
 * else the one-sample t of the log ratios ({@link PairedLogRatio}).
 */
public final class PairedEffect {
  private PairedEffect() {}

  /**
   * @param logRatios the pairs' {@code ln(candidate/baseline)}, finite
   * @param baselineOnSetOne for each pair, whether its baseline ran on set one; null when the pairs
   *     did not swap sets (or some pair's set is unknown)
   */
  public static RatioEffect of(double[] logRatios, boolean[] baselineOnSetOne) {
    return baselineOnSetOne != null && CrossoverLogRatio.fits(baselineOnSetOne)
        ? CrossoverLogRatio.of(logRatios, baselineOnSetOne)
        : PairedLogRatio.ofLogRatios(logRatios);
  }
}
