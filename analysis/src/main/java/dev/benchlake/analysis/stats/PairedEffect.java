package dev.benchlake.analysis.stats;

/**
 * The rules that pick a paired θ: where the pairs swap CPU sets with at least {@link
 * CrossoverLogRatio#MIN_PAIRS_PER_SET} pairs each way, the set is fitted; else the plain paired
 * model. {@link #robust} (the comparison's verdicts and the study's look pre-check) fits it with
 * Huber's M-estimator ({@link HuberLogRatio}), so that one disturbed round cannot overturn a
 * verdict; {@link #of} (the a/a control) by least squares ({@link CrossoverLogRatio},
 * {@link PairedLogRatio}).
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

  /**
   * The comparison's paired θ: {@link HuberLogRatio}, with the sets fitted where {@link #of} fits them.
   *
   * @param logRatios the pairs' {@code ln(candidate/baseline)}, at least two, finite
   * @param baselineOnSetOne as for {@link #of}
   */
  public static RatioEffect robust(double[] logRatios, boolean[] baselineOnSetOne) {
    return HuberLogRatio.of(logRatios, baselineOnSetOne);
  }
}
