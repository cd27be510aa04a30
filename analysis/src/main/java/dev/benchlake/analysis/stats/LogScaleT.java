package dev.benchlake.analysis.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * A t-based estimate of a log ratio, read back on the ratio scale: the estimate {@code d}, its
 * standard error {@code se} and the degrees of freedom {@code df} of the t law that
 * {@code (d − δ)/se} follows. The one place {@link LogRatio} (Welch) and {@link PairedLogRatio}
 * (one-sample t of the per-pair log ratios) turn these into an interval, a difference test and
 * TOST:
 *
 * <ul>
 *   <li>interval at {@code c}: {@code exp(d ± t_{(1+c)/2, df}·se)};
 *   <li>difference: {@code 2·P(T_df ≤ −|d/se|)}, H0: θ = 1;
 *   <li>TOST (Schuirmann 1987) against {@code [1/(1+M), 1+M]}, i.e. {@code ±L}, {@code L = ln(1+M)}:
 *       the larger of {@code P(T_df ≥ (d + L)/se)} (H0: θ ≤ 1/(1+M)) and
 *       {@code P(T_df ≤ (d − L)/se)} (H0: θ ≥ 1+M); ≤ α exactly when the 1 − 2α interval lies
 *       inside the band.
 * </ul>
 *
 * <p>With {@code se = 0} (no variation) the interval is the point {@code exp(d)} and both p-values
 * are NaN, as scipy's, so no verdict can be drawn from them.
 */
record LogScaleT(double meanLog, double seLog, double df) {

  Interval interval(double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), not " + confidence);
    }
    double ratio = Math.exp(meanLog);
    if (!(seLog > 0)) {
      return new Interval(ratio, ratio);
    }
    double half = t().inverseCumulativeProbability(0.5 + confidence / 2) * seLog;
    return new Interval(Math.exp(meanLog - half), Math.exp(meanLog + half));
  }

  double pDifference() {
    if (!(seLog > 0)) {
      return Double.NaN;
    }
    return Math.min(1.0, 2 * t().cumulativeProbability(-Math.abs(meanLog / seLog)));
  }

  double pEquivalence(double margin) {
    if (!(margin >= 0) || Double.isInfinite(margin)) {
      throw new IllegalArgumentException("margin must be 0 or more, not " + margin);
    }
    if (!(seLog > 0)) {
      return Double.NaN;
    }
    // A margin of 0 leaves an empty band: p ≥ 0.5, never equivalent, as it should be.
    double bound = Math.log1p(margin);
    TDistribution t = t();
    // Upper tails through the lower tail of the negated statistic: no 1 − p cancellation.
    double pAboveLower = t.cumulativeProbability(-(meanLog + bound) / seLog);
    double pBelowUpper = t.cumulativeProbability((meanLog - bound) / seLog);
    return Math.max(pAboveLower, pBelowUpper);
  }

  private TDistribution t() {
    return new TDistribution(null, df);
  }

  /**
   * The natural logs of per-run figures, refused unless there are at least two and each is
   * positive and finite.
   *
   * @param what names the figures in the message: {@code baseline}, {@code candidate}
   */
  static double[] logs(double[] figures, String what) {
    if (figures.length < 2) {
      throw new IllegalArgumentException(what + " needs at least two runs, has " + figures.length);
    }
    double[] logs = new double[figures.length];
    for (int i = 0; i < figures.length; i++) {
      double v = figures[i];
      if (!(v > 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException(what + " figures must be positive and finite, not " + v);
      }
      logs[i] = Math.log(v);
    }
    return logs;
  }

  static double mean(double[] x) {
    double sum = 0;
    for (double v : x) {
      sum += v;
    }
    return sum / x.length;
  }

  /** The sample variance, {@code ddof = 1}. */
  static double variance(double[] x, double mean) {
    double sum = 0;
    for (double v : x) {
      double d = v - mean;
      sum += d * d;
    }
    return sum / (x.length - 1);
  }
}
