package dev.benchlake.analysis.engine;

import dev.benchlake.analysis.stats.Moments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The driver's map of one step's sorted latencies, merged from every partition's
 * {@link PartSummary}: which buckets exist, which partition holds each, and how many values of
 * each group and run lie below each bucket. With it a global rank (of a group or a run) becomes
 * a bucket and a rank inside it, and the statistics that need the order across buckets are
 * finished here: Mann–Whitney's U adds the pairs in different buckets, which are ordered by
 * their buckets.
 */
public final class StepLayout {
  private final String step;
  private final int[] runGroup;
  private final long[] buckets;
  private final int[] partitionOf;
  /** [group][k]: values of the group in buckets before k; length K + 1. */
  private final long[][] groupBelow;
  /** Per run: the bucket indexes where it has values, and its count before each of them. */
  private final int[][] runBuckets;
  private final long[][] runBelow;
  private final long[] runN;
  private final Moments[] runMoments;
  private final long[] runUnderThreshold;
  private final long twoUWithin;
  private final double tieTerm;

  /** Where a rank lies: bucket {@code buckets[bucketIndex]}, {@code localRank} inside it. */
  public record Location(int bucketIndex, long bucket, int partition, long localRank) {}

  StepLayout(String step, List<PartSummary> parts, int[] runGroup) {
    this.step = step;
    this.runGroup = runGroup;
    int runs = runGroup.length;
    TreeMap<Long, PartSummary> owner = new TreeMap<>();
    TreeMap<Long, Integer> entryOf = new TreeMap<>();
    long twoU = 0;
    double ties = 0;
    Moments[] moments = new Moments[runs];
    Arrays.fill(moments, Moments.EMPTY);
    long[] under = new long[runs];
    for (PartSummary part : parts) {
      for (int k = 0; k < part.buckets().length; k++) {
        if (owner.put(part.buckets()[k], part) != null) {
          throw new IllegalStateException("bucket " + part.buckets()[k] + " of step " + step + " is in two partitions");
        }
        entryOf.put(part.buckets()[k], k);
      }
      for (int r = 0; r < runs; r++) {
        moments[r] = moments[r].merge(part.runMoments()[r]);
        under[r] += part.runUnderThreshold()[r];
      }
      twoU += part.twoUWithin();
      ties += part.tieTerm();
    }
    int count = owner.size();
    buckets = new long[count];
    partitionOf = new int[count];
    groupBelow = new long[2][count + 1];
    List<List<Integer>> bucketsOfRun = new ArrayList<>();
    List<List<Long>> belowOfRun = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      bucketsOfRun.add(new ArrayList<>());
      belowOfRun.add(new ArrayList<>());
    }
    long[] runSoFar = new long[runs];
    int k = 0;
    for (var e : owner.entrySet()) {
      PartSummary part = e.getValue();
      int local = entryOf.get(e.getKey());
      buckets[k] = e.getKey();
      partitionOf[k] = part.partition();
      groupBelow[0][k + 1] = groupBelow[0][k];
      groupBelow[1][k + 1] = groupBelow[1][k];
      for (int i = part.entryStart()[local]; i < part.entryStart()[local + 1]; i++) {
        int run = part.entryRun()[i];
        long n = part.entryCount()[i];
        bucketsOfRun.get(run).add(k);
        belowOfRun.get(run).add(runSoFar[run]);
        runSoFar[run] += n;
        groupBelow[runGroup[run]][k + 1] += n;
      }
      k++;
    }
    runBuckets = new int[runs][];
    runBelow = new long[runs][];
    for (int r = 0; r < runs; r++) {
      runBuckets[r] = bucketsOfRun.get(r).stream().mapToInt(Integer::intValue).toArray();
      runBelow[r] = belowOfRun.get(r).stream().mapToLong(Long::longValue).toArray();
    }
    runN = runSoFar;
    runMoments = moments;
    runUnderThreshold = under;
    twoUWithin = twoU;
    tieTerm = ties;
  }

  public String step() {
    return step;
  }

  /** Latencies of group {@code g} (0 baseline, 1 candidate). */
  public long n(int group) {
    return groupBelow[group][buckets.length];
  }

  /** Latencies of run {@code run}. */
  public long runN(int run) {
    return runN[run];
  }

  public Moments runMoments(int run) {
    return runMoments[run];
  }

  /** Latencies of the run below the threshold the engine was given. */
  public long runUnderThreshold(int run) {
    return runUnderThreshold[run];
  }

  /** The moments of a whole group. */
  public Moments moments(int group) {
    Moments m = Moments.EMPTY;
    for (int r = 0; r < runGroup.length; r++) {
      if (runGroup[r] == group) {
        m = m.merge(runMoments[r]);
      }
    }
    return m;
  }

  /** Latencies of the group below the threshold. */
  public long underThreshold(int group) {
    long n = 0;
    for (int r = 0; r < runGroup.length; r++) {
      if (runGroup[r] == group) {
        n += runUnderThreshold[r];
      }
    }
    return n;
  }

  /**
   * Twice the candidate's Mann–Whitney U: the pairs within one bucket (counted by the partitions)
   * plus, for every bucket, its candidate values times the baseline values in lower buckets.
   */
  public long twoU() {
    long cross = 0;
    for (int k = 0; k < buckets.length; k++) {
      long candidateHere = groupBelow[1][k + 1] - groupBelow[1][k];
      cross += 2 * Math.multiplyExact(candidateHere, groupBelow[0][k]);
    }
    return twoUWithin + cross;
  }

  /** Σ (t³ − t) over the groups of tied latencies of the pooled sample. */
  public double tieTerm() {
    return tieTerm;
  }

  /** Where the value of 0-based {@code rank} in group {@code g} lies. */
  public Location locateInGroup(int group, long rank) {
    long[] below = groupBelow[group];
    if (rank < 0 || rank >= n(group)) {
      throw new IllegalArgumentException("rank " + rank + " outside group " + group + " of " + n(group));
    }
    int k = lastAtMost(below, rank, buckets.length);
    return new Location(k, buckets[k], partitionOf[k], rank - below[k]);
  }

  /** Where the value of 0-based {@code rank} in run {@code run} lies. */
  public Location locateInRun(int run, long rank) {
    if (rank < 0 || rank >= runN[run]) {
      throw new IllegalArgumentException("rank " + rank + " outside run " + run + " of " + runN[run]);
    }
    long[] below = runBelow[run];
    int i = lastAtMost(below, rank, below.length);
    int k = runBuckets[run][i];
    return new Location(k, buckets[k], partitionOf[k], rank - below[i]);
  }

  /** The last index {@code i < length} with {@code sorted[i] ≤ value}. */
  private static int lastAtMost(long[] sorted, long value, int length) {
    int low = 0;
    int high = length - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (sorted[mid] <= value) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  /**
   * Run {@code run}'s latency histogram on the engine's buckets: {@code {buckets, counts}}, buckets
   * ascending, only those where the run has values. Each bucket spans at most 0.4 % of its values
   * ({@link LatencyBuckets}), fine enough to resample the run's tasks from it.
   */
  public long[][] runHistogram(int run) {
    int[] at = runBuckets[run];
    long[] below = runBelow[run];
    long[][] histogram = new long[2][at.length];
    for (int i = 0; i < at.length; i++) {
      histogram[0][i] = buckets[at[i]];
      histogram[1][i] = (i + 1 < at.length ? below[i + 1] : runN[run]) - below[i];
    }
    return histogram;
  }

  /** The buckets that exist, ascending. */
  public long[] buckets() {
    return buckets.clone();
  }

  /** Values of group {@code g} in each bucket of {@link #buckets()}. */
  public long[] bucketCounts(int group) {
    long[] counts = new long[buckets.length];
    for (int k = 0; k < counts.length; k++) {
      counts[k] = groupBelow[group][k + 1] - groupBelow[group][k];
    }
    return counts;
  }

  /** The Kolmogorov–Smirnov offsets of the buckets that partition {@code partition} holds. */
  long[][] ksOffsets(int partition) {
    List<long[]> rows = new ArrayList<>();
    for (int k = 0; k < buckets.length; k++) {
      if (partitionOf[k] == partition) {
        rows.add(new long[] {buckets[k], groupBelow[0][k], groupBelow[1][k]});
      }
    }
    long[][] columns = new long[3][rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      for (int c = 0; c < 3; c++) {
        columns[c][i] = rows.get(i)[c];
      }
    }
    return columns;
  }

  /** Whether any bucket of this step is held by {@code partition}. */
  boolean holds(int partition) {
    for (int p : partitionOf) {
      if (p == partition) {
        return true;
      }
    }
    return false;
  }
}
