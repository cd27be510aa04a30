package dev.benchlake.analysis.stats;

/**
 * The Hodges–Lehmann estimate of the shift between two samples, candidate minus baseline: the
 * median of all {@code n_c·n_b} pairwise differences {@code c_i − b_j} (the mean of the two middle
 * ones when their number is even, as {@code numpy.median}), with the distribution-free confidence
 * interval of Moses: {@code [D_(k), D_(n_c·n_b − k + 1)]} over the sorted differences.
 *
 * <p>{@code k} is the largest integer with {@code P(U ≤ k − 1) ≤ (1 − level)/2} under the null
 * distribution of the Mann–Whitney U: the exact distribution (no ties) when
 * {@code n_c + n_b ≤} {@link MannWhitneyU#EXACT_MAX_TOTAL}, otherwise
 * {@code k = ⌊n_c·n_b/2 − z·σ_U⌋} with the tie-corrected σ_U of {@link MannWhitneyU#sigma}. When
 * {@code k < 1} the samples are too small to bound the interval at that level
 * ({@link Interval#UNBOUNDED}; e.g. 3 vs 3 values at 95 %).
 *
 * <p>The differences are never materialised: the k-th smallest is found by bisection on its
 * (integer) value, counting the pairs {@code c_i − b_j ≤ D} with two pointers over the sorted
 * samples, in {@code O((n_c + n_b)·64)}.
 */
public final class HodgesLehmann {
  /** @param shift the estimate; @param ci95 its 95 % confidence interval */
  public record Result(double shift, Interval ci95) {}

  private HodgesLehmann() {}

  /** Both samples sorted ascending and non-empty. */
  public static Result estimate(long[] sortedCandidate, long[] sortedBaseline) {
    long nc = sortedCandidate.length;
    long nb = sortedBaseline.length;
    if (nc < 1 || nb < 1) {
      throw new IllegalArgumentException("Hodges-Lehmann needs at least one value per sample");
    }
    long pairs = nc * nb;
    double shift = pairs % 2 == 1
        ? kthDifference(sortedCandidate, sortedBaseline, (pairs + 1) / 2)
        : LinearQuantile.lerp(kthDifference(sortedCandidate, sortedBaseline, pairs / 2),
            kthDifference(sortedCandidate, sortedBaseline, pairs / 2 + 1), 0.5);
    long k = lowerOrder(sortedCandidate, sortedBaseline);
    Interval ci = k < 1 ? Interval.UNBOUNDED
        : new Interval(kthDifference(sortedCandidate, sortedBaseline, k),
            kthDifference(sortedCandidate, sortedBaseline, pairs - k + 1));
    return new Result(shift, ci);
  }

  /** The order k of the lower 95 % bound, as documented above. */
  static long lowerOrder(long[] candidate, long[] baseline) {
    int nc = candidate.length;
    int nb = baseline.length;
    double halfAlpha = 0.025;
    if (nc + nb <= MannWhitneyU.EXACT_MAX_TOTAL) {
      int[] doubledRanks = new int[nc + nb];
      for (int i = 0; i < doubledRanks.length; i++) {
        doubledRanks[i] = 2 * (i + 1);
      }
      long[] counts = MidRanks.subsetSumCounts(doubledRanks, nc);
      double total = 0;
      for (long c : counts) {
        total += c;
      }
      // U = R − nc(nc+1)/2, and R = doubled sum / 2: U = u ⟺ doubled sum = 2u + nc(nc+1).
      int offset = nc * (nc + 1);
      double cumulative = 0;
      long k = 0;
      for (long u = 0; u <= (long) nc * nb; u++) {
        cumulative += counts[(int) (2 * u + offset)];
        if (cumulative / total > halfAlpha) {
          break;
        }
        k = u + 1;
      }
      return k;
    }
    double sigma = MannWhitneyU.sigma(nc, nb, MidRanks.tieTerm(candidate, baseline));
    return (long) Math.floor((double) nc * nb / 2 - NormalTail.Z_975 * sigma);
  }

  /** The k-th smallest (1-based) of all differences {@code c_i − b_j}. */
  static long kthDifference(long[] c, long[] b, long k) {
    long low = c[0] - b[b.length - 1];
    long high = c[c.length - 1] - b[0];
    while (low < high) {
      long mid = low + Math.floorDiv(high - low, 2);
      if (countAtMost(c, b, mid) >= k) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  /** #{(i, j) : c_i − b_j ≤ d} = Σ_i #{j : b_j ≥ c_i − d}. */
  private static long countAtMost(long[] c, long[] b, long d) {
    long count = 0;
    int j = 0;
    for (long ci : c) {
      long bound = ci - d;
      while (j < b.length && b[j] < bound) {
        j++;
      }
      count += b.length - j;
    }
    return count;
  }
}
