package dev.benchlake.analysis.stats;

import java.util.Arrays;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * A simple random sample without replacement of {@code m} of the ranks {@code 0 … n−1}, seeded
 * and reproducible: uniform draws, of which duplicates are dropped and replaced by further draws
 * until {@code m} distinct ranks remain (every m-subset equally likely), in primitive arrays.
 * Choosing ranks of a sorted sample chooses tasks uniformly, without reading them all.
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
    long[] chosen = new long[0];
    while (chosen.length < m) {
      long[] drawn = new long[chosen.length + (m - chosen.length)];
      System.arraycopy(chosen, 0, drawn, 0, chosen.length);
      for (int i = chosen.length; i < drawn.length; i++) {
        drawn[i] = (long) Math.floor(random.nextDouble() * n);
      }
      Arrays.sort(drawn);
      int distinct = 0;
      for (int i = 0; i < drawn.length; i++) {
        if (i == 0 || drawn[i] != drawn[i - 1]) {
          drawn[distinct++] = drawn[i];
        }
      }
      chosen = Arrays.copyOf(drawn, distinct);
    }
    return chosen;
  }
}
