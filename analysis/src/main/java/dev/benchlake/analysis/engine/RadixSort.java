package dev.benchlake.analysis.engine;

/**
 * Sorts {@code long}s by least-significant-digit radix sort over only the bits in which they
 * differ ({@code max − min}), 11 bits per pass. Packed latencies of one partition span a few
 * dozen bits, so this takes three or four linear passes — several times faster than a comparison
 * sort of millions of values, which stalls on cache misses.
 */
final class RadixSort {
  private static final int DIGIT_BITS = 11;
  private static final int RADIX = 1 << DIGIT_BITS;
  /** Below this, the JDK's sort wins. */
  private static final int SMALL = 4096;

  private RadixSort() {}

  static void sort(long[] values) {
    int n = values.length;
    if (n < SMALL) {
      java.util.Arrays.sort(values);
      return;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long v : values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    long span = max - min;
    if (span < 0) {
      // More than 2^63 apart: offsets would overflow; a rare case left to the JDK.
      java.util.Arrays.sort(values);
      return;
    }
    int bits = 64 - Long.numberOfLeadingZeros(span);
    long[] from = values;
    long[] to = new long[n];
    int[] counts = new int[RADIX];
    for (int shift = 0; shift < bits; shift += DIGIT_BITS) {
      java.util.Arrays.fill(counts, 0);
      for (long v : from) {
        counts[(int) (((v - min) >>> shift) & (RADIX - 1))]++;
      }
      int total = 0;
      for (int d = 0; d < RADIX; d++) {
        int c = counts[d];
        counts[d] = total;
        total += c;
      }
      for (long v : from) {
        to[counts[(int) (((v - min) >>> shift) & (RADIX - 1))]++] = v;
      }
      long[] swap = from;
      from = to;
      to = swap;
    }
    if (from != values) {
      System.arraycopy(from, 0, values, 0, n);
    }
  }
}
