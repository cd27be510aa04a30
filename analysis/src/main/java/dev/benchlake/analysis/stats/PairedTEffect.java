package dev.benchlake.analysis.stats;

/**
 * A change θ from pairs of runs whose inference is a t on the log scale ({@link LogScaleT}) at its
 * {@code ln θ̂}, standard error and degrees of freedom: θ, the interval, the difference test and
 * TOST follow from those three alone, written here once for the pairs' estimators, least squares
 * ({@link PairedLogRatio}, {@link CrossoverLogRatio}) and Huber's ({@link HuberLogRatio}), which
 * differ only in how they get them.
 */
public interface PairedTEffect extends RatioEffect {
  /** The standard error of {@code ln θ̂}. */
  double seLog();

  /** The t reference's degrees of freedom: the pairs less the parameters fitted. */
  int df();

  @Override
  default double ratio() {
    return Math.exp(meanLogDifference());
  }

  @Override
  default Interval interval(double confidence) {
    return t().interval(confidence);
  }

  @Override
  default double pDifference() {
    return t().pDifference();
  }

  @Override
  default double pEquivalence(double margin) {
    return t().pEquivalence(margin);
  }

  private LogScaleT t() {
    return new LogScaleT(meanLogDifference(), seLog(), df());
  }
}
