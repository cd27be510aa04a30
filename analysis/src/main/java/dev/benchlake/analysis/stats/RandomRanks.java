package dev.benchlake.analysis.stats;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * A simple random sample without replacement of {@code m} of the ranks {@code 0 … n−1} (Floyd's
 * algorithm), seeded and reproducible. Choosing ranks of a sorted sample chooses tasks uniformly,
 * without reading them all.
 */
public final class RandomRanks {
  private RandomRanks() {}

  /** {@code min(m, n)} distinct ranks, ascending. */
  public static long[] sample(long n, int m, long seed) {
    if (m >= n) {
      long[] all = new long[(int) n];
      Arrays.setAll(all, i -> i);
      return all;
    }
    RandomGenerator random = new Well19937c(seed);
    Set<Long> chosen = new HashSet<>();
    for (long j = n - m; j < n; j++) {
      long t = (long) Math.floor(random.nextDouble() * (j + 1));
      chosen.add(chosen.contains(t) ? j : t);
    }
    return chosen.stream().mapToLong(Long::longValue).sorted().toArray();
  }
}
