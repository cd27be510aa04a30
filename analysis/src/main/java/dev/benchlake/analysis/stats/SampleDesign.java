package dev.benchlake.analysis.stats;

/**
 * How the replicates of a comparison are taken, as far as a t-test's power sees it: what a plan of
 * {@code n} replicates means for the spread of the estimated log ratio and for the test's degrees
 * of freedom. {@code s} is the spread one replicate contributes ({@link RatioEffect#betweenRunSdLog}).
 */
public enum SampleDesign {
  /**
   * Two independent groups of {@code n} runs each ({@link LogRatio}): with equal sizes and equal
   * variances Welch's test is the pooled two-sample t, {@code df = 2n − 2}, and the log ratio has
   * SD {@code s·√(2/n)}, {@code s} the between-run SD of one run's log figure.
   */
  TWO_GROUPS,
  /**
   * {@code n} pairs, one run of each side in a pair ({@link PairedLogRatio}): the one-sample t on
   * the per-pair log ratios, {@code df = n − 1}, and their mean has SD {@code s/√n}, {@code s} the
   * SD of one pair's log ratio.
   */
  PAIRED,
  /**
   * {@code n} pairs whose sides swap CPU sets, half of them each way, the set fitted
   * ({@link CrossoverLogRatio}): {@code df = n − 2}, and θ's log has SD {@code s/√n}, {@code s} the
   * SD of one pair's log ratio around its assignment's mean.
   */
  CROSSOVER;

  /** The t-test's degrees of freedom with {@code n} replicates (runs per group, or pairs). */
  public int df(int n) {
    return switch (this) {
      case TWO_GROUPS -> 2 * n - 2;
      case PAIRED -> n - 1;
      case CROSSOVER -> n - 2;
    };
  }

  /** The SD of the estimated log ratio with {@code n} replicates, each of spread {@code sdLog}. */
  public double sdOfEstimate(double sdLog, int n) {
    return this == TWO_GROUPS ? sdLog * Math.sqrt(2.0 / n) : sdLog / Math.sqrt(n);
  }

  /**
   * The replicates at which the estimate's SD is {@code sdLog/k}: {@code 2k²} runs per group, or
   * {@code k²} pairs (paired or crossover) (the normal-approximation plan's form, for a first guess).
   */
  double replicatesFor(double k) {
    return this == TWO_GROUPS ? 2 * k * k : k * k;
  }
}
