package dev.benchlake.analysis.stats;

import java.util.Arrays;
import java.util.function.LongUnaryOperator;
import org.apache.commons.math3.distribution.BetaDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * Percentile bootstrap confidence interval of the ratio of medians, candidate over baseline:
 * {@code B} times, resample each group with replacement (same size), take
 * {@code median(candidate*)/median(baseline*)}; the interval is the 2.5 % and 97.5 % quantiles
 * ({@link LinearQuantile}) of those {@code B} ratios. Medians are {@code numpy.median}'s.
 *
 * <p><b>Without resampling the data.</b> A resample of {@code n} values drawn with replacement from
 * sorted {@code x_1 ≤ … ≤ x_n} is {@code x_⌈n·U_i⌉} for {@code n} independent uniforms
 * {@code U_i}, and since that map is non-decreasing, the resample's k-th smallest value is
 * {@code x_⌈n·U_(k)⌉} where {@code U_(k) ~ Beta(k, n − k + 1)} is the k-th smallest uniform. For an
 * even {@code n} the median also needs {@code U_(k+1) = U_(k) + (1 − U_(k))·(1 − V^{1/(n−k)})} with
 * {@code V} uniform (the smallest of the {@code n − k} uniforms above {@code U_(k)}). So each
 * replicate needs one or two values at random ranks, not {@code n} draws: the bootstrap runs over
 * all the data at any size, and a distributed caller only fetches {@code B} (or {@code 2B}) values
 * per group. Replicates whose baseline median is 0 have no ratio and are left out.
 *
 * <p>Use: {@link #plan} draws the ranks (seeded, reproducible), the caller looks the values up,
 * {@link Plan#interval} finishes.
 */
public final class BootstrapMedianRatio {
  public static final int DEFAULT_RESAMPLES = 2000;
  public static final long DEFAULT_SEED = 20160302L;

  private BootstrapMedianRatio() {}

  /** The random ranks (0-based, in the sorted sample) the replicates need. */
  public record Plan(long nCandidate, long nBaseline, long[] candidateRanks, long[] baselineRanks, int resamples) {
    /** Every rank of the candidate to look up, sorted and distinct. */
    public long[] distinctCandidateRanks() {
      return Arrays.stream(candidateRanks).sorted().distinct().toArray();
    }

    /** Every rank of the baseline to look up, sorted and distinct. */
    public long[] distinctBaselineRanks() {
      return Arrays.stream(baselineRanks).sorted().distinct().toArray();
    }

    /**
     * The 95 % percentile interval, given the value at each rank of each group; unbounded when no
     * replicate has a ratio.
     */
    public Interval interval(LongUnaryOperator candidateValueAt, LongUnaryOperator baselineValueAt) {
      double[] ratios = new double[resamples];
      int kept = 0;
      for (int r = 0; r < resamples; r++) {
        double base = replicateMedian(nBaseline, baselineRanks, r, baselineValueAt);
        if (base != 0) {
          ratios[kept++] = replicateMedian(nCandidate, candidateRanks, r, candidateValueAt) / base;
        }
      }
      if (kept == 0) {
        return Interval.UNBOUNDED;
      }
      double[] sorted = Arrays.copyOf(ratios, kept);
      Arrays.sort(sorted);
      return new Interval(LinearQuantile.of(sorted, 0.025), LinearQuantile.of(sorted, 0.975));
    }
  }

  /**
   * Draws the ranks of {@code resamples} replicates for groups of the given sizes (both ≥ 1).
   */
  public static Plan plan(long nCandidate, long nBaseline, int resamples, long seed) {
    if (nCandidate < 1 || nBaseline < 1 || resamples < 1) {
      throw new IllegalArgumentException("bootstrap needs values in both groups and at least one resample");
    }
    RandomGenerator random = new Well19937c(seed);
    long[] candidate = new long[resamples * ranksPerMedian(nCandidate)];
    long[] baseline = new long[resamples * ranksPerMedian(nBaseline)];
    for (int r = 0; r < resamples; r++) {
      drawMedianRanks(nCandidate, random, candidate, r);
      drawMedianRanks(nBaseline, random, baseline, r);
    }
    return new Plan(nCandidate, nBaseline, candidate, baseline, resamples);
  }

  /** The 95 % interval over sorted in-memory samples (the whole computation in one call). */
  public static Interval interval(long[] sortedCandidate, long[] sortedBaseline, int resamples, long seed) {
    Plan plan = plan(sortedCandidate.length, sortedBaseline.length, resamples, seed);
    return plan.interval(rank -> sortedCandidate[(int) rank], rank -> sortedBaseline[(int) rank]);
  }

  private static int ranksPerMedian(long n) {
    return n % 2 == 1 ? 1 : 2;
  }

  private static void drawMedianRanks(long n, RandomGenerator random, long[] into, int replicate) {
    if (n % 2 == 1) {
      long k = (n + 1) / 2;
      into[replicate] = rankOf(new BetaDistribution(random, k, n - k + 1).sample(), n);
      return;
    }
    long k = n / 2;
    double uk = new BetaDistribution(random, k, n - k + 1).sample();
    double next = uk + (1 - uk) * (1 - Math.pow(random.nextDouble(), 1.0 / (n - k)));
    into[2 * replicate] = rankOf(uk, n);
    into[2 * replicate + 1] = rankOf(next, n);
  }

  /** The 0-based rank of {@code x_⌈n·u⌉}. */
  private static long rankOf(double u, long n) {
    long oneBased = (long) Math.ceil(n * u);
    return Math.min(n - 1, Math.max(0, oneBased - 1));
  }

  private static double replicateMedian(long n, long[] ranks, int replicate, LongUnaryOperator valueAt) {
    if (n % 2 == 1) {
      return valueAt.applyAsLong(ranks[replicate]);
    }
    return LinearQuantile.lerp(valueAt.applyAsLong(ranks[2 * replicate]),
        valueAt.applyAsLong(ranks[2 * replicate + 1]), 0.5);
  }
}
