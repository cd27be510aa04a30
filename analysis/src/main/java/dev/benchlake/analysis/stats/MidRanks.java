package dev.benchlake.analysis.stats;

import java.util.Arrays;

/**
 * The pooled ranking of two samples that rank tests share: ties get the mean of the ranks they
 * span (mid-ranks), kept doubled so that they stay integers.
 */
final class MidRanks {
  /** Doubled mid-rank of each value of the first sample, in input order. */
  final int[] firstDoubled;
  /** Doubled mid-rank of every pooled value, in sorted order. */
  final int[] pooledDoubled;
  /** Σ (t³ − t) over the groups of tied values (t = group size). */
  final double tieTerm;
  /** Whether any two pooled values are equal. */
  final boolean hasTies;

  private MidRanks(int[] firstDoubled, int[] pooledDoubled, double tieTerm, boolean hasTies) {
    this.firstDoubled = firstDoubled;
    this.pooledDoubled = pooledDoubled;
    this.tieTerm = tieTerm;
    this.hasTies = hasTies;
  }

  static MidRanks of(double[] first, double[] second) {
    int n = first.length + second.length;
    double[][] pooled = new double[n][];
    for (int i = 0; i < first.length; i++) {
      pooled[i] = new double[] {first[i], i};
    }
    for (int i = 0; i < second.length; i++) {
      pooled[first.length + i] = new double[] {second[i], -1};
    }
    Arrays.sort(pooled, (a, b) -> Double.compare(a[0], b[0]));
    int[] firstDoubled = new int[first.length];
    int[] pooledDoubled = new int[n];
    double tieTerm = 0;
    boolean hasTies = false;
    for (int start = 0; start < n; ) {
      int end = start + 1;
      while (end < n && pooled[end][0] == pooled[start][0]) {
        end++;
      }
      // 1-based ranks start+1 .. end: their mean, doubled, is start + 1 + end.
      int doubled = start + 1 + end;
      double t = end - start;
      if (t > 1) {
        hasTies = true;
        tieTerm += t * t * t - t;
      }
      for (int i = start; i < end; i++) {
        pooledDoubled[i] = doubled;
        if (pooled[i][1] >= 0) {
          firstDoubled[(int) pooled[i][1]] = doubled;
        }
      }
      start = end;
    }
    return new MidRanks(firstDoubled, pooledDoubled, tieTerm, hasTies);
  }

  /** Σ (t³ − t) over the groups of equal values of two pooled sorted samples. */
  static double tieTerm(long[] sortedA, long[] sortedB) {
    double term = 0;
    int i = 0;
    int j = 0;
    while (i < sortedA.length || j < sortedB.length) {
      long x = j >= sortedB.length || (i < sortedA.length && sortedA[i] <= sortedB[j]) ? sortedA[i] : sortedB[j];
      double t = 0;
      while (i < sortedA.length && sortedA[i] == x) {
        i++;
        t++;
      }
      while (j < sortedB.length && sortedB[j] == x) {
        j++;
        t++;
      }
      term += t * t * t - t;
    }
    return term;
  }

  /**
   * The permutation distribution of the sum of {@code k} of {@code doubledRanks} chosen at random:
   * {@code counts[s]} = number of {@code k}-subsets whose doubled ranks sum to {@code s}. Exact in
   * {@code long} for up to 60 values ({@code C(60, 30) < 2^63}).
   */
  static long[] subsetSumCounts(int[] doubledRanks, int k) {
    int maxSum = 0;
    for (int r : doubledRanks) {
      maxSum += r;
    }
    long[][] ways = new long[k + 1][maxSum + 1];
    ways[0][0] = 1;
    for (int i = 0; i < doubledRanks.length; i++) {
      int r = doubledRanks[i];
      for (int j = Math.min(i + 1, k); j >= 1; j--) {
        long[] into = ways[j];
        long[] from = ways[j - 1];
        for (int s = maxSum - r; s >= 0; s--) {
          if (from[s] != 0) {
            into[s + r] += from[s];
          }
        }
      }
    }
    return ways[k];
  }
}
