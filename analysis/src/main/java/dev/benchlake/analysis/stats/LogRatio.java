package dev.benchlake.analysis.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * STAND-IN for branch trend's verdict core (replaced at merge): the ratio of the geometric means
 * of per-run figures, candidate over baseline, with Welch's t on the logs.
 */
public final class LogRatio {
  public final int nBaseline;
  public final int nCandidate;
  public final double meanLogDifference;
  public final double seLog;
  public final double df;
  public final double sdLogBaseline;
  public final double sdLogCandidate;

  private LogRatio(int nb, int nc, double d, double se, double df, double sb, double sc) {
    this.nBaseline = nb;
    this.nCandidate = nc;
    this.meanLogDifference = d;
    this.seLog = se;
    this.df = df;
    this.sdLogBaseline = sb;
    this.sdLogCandidate = sc;
  }

  public static LogRatio of(double[] baseline, double[] candidate) {
    double mb = mean(baseline);
    double mc = mean(candidate);
    double vb = variance(baseline, mb);
    double vc = variance(candidate, mc);
    double a = vc / candidate.length;
    double b = vb / baseline.length;
    double se = Math.sqrt(a + b);
    double df = (a + b) * (a + b) / (a * a / (candidate.length - 1) + b * b / (baseline.length - 1));
    return new LogRatio(baseline.length, candidate.length, mc - mb, se, df, Math.sqrt(vb), Math.sqrt(vc));
  }

  public double ratio() {
    return Math.exp(meanLogDifference);
  }

  public Interval interval(double confidence) {
    if (!(seLog > 0)) {
      return Interval.UNBOUNDED;
    }
    double t = new TDistribution(null, df).inverseCumulativeProbability(0.5 + confidence / 2);
    return new Interval(Math.exp(meanLogDifference - t * seLog), Math.exp(meanLogDifference + t * seLog));
  }

  public double pDifference() {
    if (!(seLog > 0)) {
      return Double.NaN;
    }
    return Math.min(1, 2 * new TDistribution(null, df).cumulativeProbability(-Math.abs(meanLogDifference / seLog)));
  }

  public double pEquivalence(double margin) {
    if (!(seLog > 0)) {
      return Double.NaN;
    }
    double bound = Math.log1p(margin);
    TDistribution t = new TDistribution(null, df);
    double lower = 1 - t.cumulativeProbability((meanLogDifference + bound) / seLog);
    double upper = t.cumulativeProbability((meanLogDifference - bound) / seLog);
    return Math.max(lower, upper);
  }

  public double betweenRunSdLog() {
    double pooled = ((nBaseline - 1) * sdLogBaseline * sdLogBaseline + (nCandidate - 1) * sdLogCandidate * sdLogCandidate)
        / (nBaseline + nCandidate - 2);
    return Math.sqrt(pooled);
  }

  private static double mean(double[] values) {
    double s = 0;
    for (double v : values) {
      s += Math.log(v);
    }
    return s / values.length;
  }

  private static double variance(double[] values, double mean) {
    double s = 0;
    for (double v : values) {
      double d = Math.log(v) - mean;
      s += d * d;
    }
    return s / (values.length - 1);
  }
}
