package dev.benchlake.analysis.stats;

import java.util.Arrays;
import org.apache.commons.math3.distribution.BetaDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * A 95 % percentile interval of the ratio of geometric means of per-run quantiles (candidate over
 * baseline) by a two-stage bootstrap, the hierarchical resampling of Kalibera &amp; Jones (2013):
 * each resample draws, per group, as many runs as the group has, with replacement; then, for each
 * drawn run, its tasks with replacement, and takes the run's {@code p}-quantile; the statistic is
 * {@code exp(mean(ln q_c) − mean(ln q_b))}. The interval is the 2.5 % and 97.5 % percentiles of
 * the resampled statistics (numpy's linear definition).
 *
 * <p>Tasks are never materialised: a run is its latency histogram on the engine's buckets, and
 * the {@code p}-quantile of a resample of its {@code n} tasks is drawn directly: the order statistic
 * of rank {@code k = ⌊(n − 1)·p⌋ + 1} of {@code n} resampled tasks is {@code F⁻¹(U)} with
 * {@code U ~ Beta(k, n − k + 1)} (the k-th of n uniforms) and {@code F⁻¹} the run's empirical
 * quantile function, read on the histogram with linear interpolation inside a bucket (each bucket
 * spans ≤ 0.4 % of its values, which bounds the error). The generator is Well19937c with a fixed
 * seed, so the interval is reproducible.
 *
 * <p>With few runs per group the outer stage sees little of the run-to-run distribution and the
 * interval is narrower than it should be (by about √((n − 1)/n) on the log scale); it is shown next
 * to θ's Welch interval, not instead of it.
 */
public final class TwoStageBootstrap {
  public static final int DEFAULT_RESAMPLES = 2000;

  /** One run's latencies as a histogram: bucket bounds (inclusive) and counts, ascending. */
  public record Run(long[] lowerNs, long[] upperNs, long[] counts) {
    long n() {
      return Arrays.stream(counts).sum();
    }
  }

  private TwoStageBootstrap() {}

  /**
   * The interval, or {@link Interval#UNBOUNDED} when a group has no run or a drawn quantile is not
   * positive (a ratio of logs needs positive figures).
   */
  public static Interval interval(Run[] baseline, Run[] candidate, double p, int resamples, long seed) {
    if (baseline.length == 0 || candidate.length == 0) {
      return Interval.UNBOUNDED;
    }
    RandomGenerator random = new Well19937c(seed);
    double[] statistics = new double[resamples];
    for (int b = 0; b < resamples; b++) {
      double logC = meanLogQuantile(candidate, p, random);
      double logB = meanLogQuantile(baseline, p, random);
      if (!Double.isFinite(logC) || !Double.isFinite(logB)) {
        return Interval.UNBOUNDED;
      }
      statistics[b] = Math.exp(logC - logB);
    }
    Arrays.sort(statistics);
    return new Interval(LinearQuantile.of(statistics, 0.025), LinearQuantile.of(statistics, 0.975));
  }

  private static double meanLogQuantile(Run[] runs, double p, RandomGenerator random) {
    double sum = 0;
    for (int i = 0; i < runs.length; i++) {
      Run run = runs[random.nextInt(runs.length)];
      double q = resampledQuantile(run, p, random);
      if (!(q > 0)) {
        return Double.NaN;
      }
      sum += Math.log(q);
    }
    return sum / runs.length;
  }

  /**
   * The within-run standard error of the log of a run's p-quantile: the sample SD ({@code ddof = 1})
   * of {@code ln q*} over {@code resamples} resamples of the run's own tasks (the inner stage alone).
   * Unlike the asymptotic {@code √(p(1−p)/n)/f(q)}, it needs no density estimate, which fails in a
   * tail with gaps. NaN when a resampled quantile is not positive.
   */
  public static double withinRunSeLog(Run run, double p, int resamples, long seed) {
    RandomGenerator random = new Well19937c(seed);
    double sum = 0;
    double squares = 0;
    for (int b = 0; b < resamples; b++) {
      double q = resampledQuantile(run, p, random);
      if (!(q > 0)) {
        return Double.NaN;
      }
      double x = Math.log(q);
      sum += x;
      squares += x * x;
    }
    double mean = sum / resamples;
    return Math.sqrt(Math.max(0, (squares - resamples * mean * mean) / (resamples - 1)));
  }

  /** The p-quantile's order statistic of n tasks drawn with replacement from {@code run}. */
  static double resampledQuantile(Run run, double p, RandomGenerator random) {
    long n = run.n();
    long k = (long) Math.floor((n - 1) * p) + 1;
    double u = n == 1 ? random.nextDouble() : new BetaDistribution(random, k, n - k + 1).sample();
    return inverse(run, u * n);
  }

  /** The value below which {@code position} of the run's tasks lie, linear inside a bucket. */
  private static double inverse(Run run, double position) {
    double below = 0;
    for (int i = 0; i < run.counts().length; i++) {
      long count = run.counts()[i];
      if (position <= below + count || i == run.counts().length - 1) {
        double share = count == 0 ? 0 : Math.min(1, Math.max(0, (position - below) / count));
        return run.lowerNs()[i] + share * (run.upperNs()[i] - run.lowerNs()[i]);
      }
      below += count;
    }
    return Double.NaN;
  }
}
