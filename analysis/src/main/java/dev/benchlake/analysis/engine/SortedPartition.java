package dev.benchlake.analysis.engine;

import dev.benchlake.analysis.stats.Moments;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import scala.Tuple2;

/**
 * The reduce side of the sort: the latencies of the buckets hashed to this partition, per step
 * and group (0 = baseline, 1 = candidate), packed ({@link RunPacking}) and sorted; plus the task
 * counts of the input partitions routed here. Every bucket lies entirely in one partition, so a
 * bucket is a contiguous segment of each sorted array.
 */
final class SortedPartition implements Serializable {
  private static final long serialVersionUID = 1L;

  final int index;
  final TreeMap<String, long[][]> steps;
  final List<RunCounts> counts;

  private SortedPartition(int index, TreeMap<String, long[][]> steps, List<RunCounts> counts) {
    this.index = index;
    this.steps = steps;
    this.counts = counts;
  }

  static SortedPartition build(int index, Iterator<Tuple2<Integer, Chunk>> chunks, RunPacking packing, int[] runGroup) {
    Map<String, List<long[]>> values = new TreeMap<>();
    List<RunCounts> counts = new ArrayList<>();
    while (chunks.hasNext()) {
      Chunk chunk = chunks.next()._2();
      if (chunk instanceof Chunk.Values v) {
        values.computeIfAbsent(v.step(), s -> new ArrayList<>()).add(v.packed());
      } else if (chunk instanceof Chunk.Counts c) {
        counts.addAll(c.counts());
      }
    }
    TreeMap<String, long[][]> steps = new TreeMap<>();
    values.forEach((step, parts) -> steps.put(step, splitAndSort(parts, packing, runGroup)));
    return new SortedPartition(index, steps, counts);
  }

  private static long[][] splitAndSort(List<long[]> parts, RunPacking packing, int[] runGroup) {
    int[] sizes = new int[2];
    for (long[] part : parts) {
      for (long packed : part) {
        sizes[runGroup[packing.run(packed)]]++;
      }
    }
    long[][] groups = {new long[sizes[0]], new long[sizes[1]]};
    int[] fill = new int[2];
    for (long[] part : parts) {
      for (long packed : part) {
        int g = runGroup[packing.run(packed)];
        groups[g][fill[g]++] = packed;
      }
    }
    RadixSort.sort(groups[0]);
    RadixSort.sort(groups[1]);
    return groups;
  }

  /** One summary per step held here. */
  List<PartSummary> summarize(RunPacking packing, int runs, long thresholdNs) {
    List<PartSummary> summaries = new ArrayList<>();
    steps.forEach((step, groups) -> summaries.add(summarize(step, groups, packing, runs, thresholdNs)));
    return summaries;
  }

  private PartSummary summarize(String step, long[][] groups, RunPacking packing, int runs, long thresholdNs) {
    Moments.Accumulator[] moments = new Moments.Accumulator[runs];
    long[] under = new long[runs];
    for (long[] group : groups) {
      for (long packed : group) {
        int run = packing.run(packed);
        long latency = packing.latencyNs(packed);
        if (moments[run] == null) {
          moments[run] = new Moments.Accumulator();
        }
        moments[run].add(latency);
        if (latency < thresholdNs) {
          under[run]++;
        }
      }
    }
    Moments[] runMoments = new Moments[runs];
    for (int r = 0; r < runs; r++) {
      runMoments[r] = moments[r] == null ? Moments.EMPTY : moments[r].toMoments();
    }
    BucketCounts bucketCounts = BucketCounts.of(groups, packing, runs);
    long twoU = 0;
    double tieTerm = 0;
    MergedCursor cursor = new MergedCursor(packing, groups[0], groups[1]);
    long bucketUpper = Long.MIN_VALUE;
    long baselineBelow = 0;
    while (cursor.next()) {
      if (cursor.latencyNs > bucketUpper || bucketUpper == Long.MIN_VALUE) {
        bucketUpper = LatencyBuckets.upperBound(LatencyBuckets.of(cursor.latencyNs));
        baselineBelow = 0;
      }
      twoU += cursor.candidateTies * (2 * baselineBelow + cursor.baselineTies);
      double t = cursor.baselineTies + cursor.candidateTies;
      tieTerm += t * t * t - t;
      baselineBelow += cursor.baselineTies;
    }
    return new PartSummary(step, index, bucketCounts.buckets, bucketCounts.entryStart, bucketCounts.entryRun,
        bucketCounts.entryCount, runMoments, under, twoU, tieTerm);
  }

  /** The counts per (bucket, run) of both groups, sparse, buckets ascending. */
  private record BucketCounts(long[] buckets, int[] entryStart, int[] entryRun, long[] entryCount) {
    static BucketCounts of(long[][] groups, RunPacking packing, int runs) {
      // Each group's array is sorted, so its buckets come as consecutive segments; a run belongs
      // to one group, so a bucket's entries are the baseline's segment then the candidate's.
      TreeMap<Long, List<long[]>> byBucket = new TreeMap<>();
      long[] perRun = new long[runs];
      for (long[] group : groups) {
        int i = 0;
        while (i < group.length) {
          long bucket = LatencyBuckets.of(packing.latencyNs(group[i]));
          long upper = LatencyBuckets.upperBound(bucket);
          int end = i;
          while (end < group.length && packing.latencyNs(group[end]) <= upper) {
            perRun[packing.run(group[end])]++;
            end++;
          }
          List<long[]> entries = byBucket.computeIfAbsent(bucket, b -> new ArrayList<>());
          for (int r = 0; r < runs; r++) {
            if (perRun[r] > 0) {
              entries.add(new long[] {r, perRun[r]});
              perRun[r] = 0;
            }
          }
          i = end;
        }
      }
      long[] buckets = new long[byBucket.size()];
      int[] entryStart = new int[buckets.length + 1];
      int entries = byBucket.values().stream().mapToInt(List::size).sum();
      int[] entryRun = new int[entries];
      long[] entryCount = new long[entries];
      int k = 0;
      int e = 0;
      for (Map.Entry<Long, List<long[]>> bucket : byBucket.entrySet()) {
        buckets[k] = bucket.getKey();
        entryStart[k++] = e;
        for (long[] entry : bucket.getValue()) {
          entryRun[e] = (int) entry[0];
          entryCount[e++] = entry[1];
        }
      }
      entryStart[buckets.length] = e;
      return new BucketCounts(buckets, entryStart, entryRun, entryCount);
    }
  }

  /**
   * This partition with only the latencies inside {@code keep[step][run] = {low, high}}: the
   * fences are per run (an outlier is unusual for its own run, not for the pool of runs, whose
   * spread is the run-to-run variance the run-level tests need).
   */
  SortedPartition keep(Map<String, long[][]> keep, RunPacking packing) {
    TreeMap<String, long[][]> kept = new TreeMap<>();
    steps.forEach((step, groups) -> {
      long[][] ranges = keep.get(step);
      kept.put(step, ranges == null ? groups : new long[][] {
          filter(groups[0], ranges, packing), filter(groups[1], ranges, packing)});
    });
    return new SortedPartition(index, kept, counts);
  }

  private static long[] filter(long[] sorted, long[][] rangeOfRun, RunPacking packing) {
    long[] kept = new long[sorted.length];
    int size = 0;
    for (long packed : sorted) {
      long[] range = rangeOfRun[packing.run(packed)];
      long latency = packing.latencyNs(packed);
      if (latency >= range[0] && latency <= range[1]) {
        kept[size++] = packed;
      }
    }
    return Arrays.copyOf(kept, size);
  }

  /**
   * How many latencies of {@code group} lie in each {@code [lows[i], highs[i]]}; of run
   * {@code run} only when it is not negative.
   */
  long[] countWithin(String step, int group, int run, long[] lows, long[] highs, RunPacking packing) {
    long[] counts = new long[lows.length];
    long[][] groups = steps.get(step);
    if (groups != null) {
      long[] sorted = groups[group];
      for (int i = 0; i < lows.length; i++) {
        int from = firstAtLeast(sorted, lows[i], packing);
        int to = firstAbove(sorted, highs[i], packing);
        if (run < 0) {
          counts[i] = Math.max(0, to - from);
        } else {
          for (int j = from; j < to; j++) {
            counts[i] += packing.run(sorted[j]) == run ? 1 : 0;
          }
        }
      }
    }
    return counts;
  }

  /** The first index whose latency is {@code ≥ latencyNs}. */
  static int firstAtLeast(long[] sorted, long latencyNs, RunPacking packing) {
    if (latencyNs > packing.maxLatencyNs()) {
      return sorted.length;
    }
    if (latencyNs < packing.minLatencyNs()) {
      return 0;
    }
    long key = packing.first(latencyNs);
    int low = 0;
    int high = sorted.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (sorted[mid] < key) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** The first index whose latency is {@code > latencyNs}. */
  static int firstAbove(long[] sorted, long latencyNs, RunPacking packing) {
    return latencyNs >= packing.maxLatencyNs() ? sorted.length : firstAtLeast(sorted, latencyNs + 1, packing);
  }

  /** Answers the driver's requests about the steps held here. */
  List<StepRequest.Answer> answer(List<StepRequest> requests, RunPacking packing, int[] runGroup) {
    List<StepRequest.Answer> answers = new ArrayList<>();
    for (StepRequest request : requests) {
      long[][] groups = steps.getOrDefault(request.step(), new long[][] {new long[0], new long[0]});
      answers.add(new StepRequest.Answer(request.step(), lookups(request, groups, packing, runGroup),
          request.ksBaselineN() > 0 ? ksScaled(request, groups, packing) : 0,
          request.extractBaseline() ? latencies(groups[0], packing) : null,
          request.extractCandidate() ? latencies(groups[1], packing) : null));
    }
    return answers;
  }

  private static long[] lookups(StepRequest request, long[][] groups, RunPacking packing, int[] runGroup) {
    long[] values = new long[request.buckets().length];
    Map<Long, int[]> segmentStarts = new HashMap<>();
    for (int i = 0; i < values.length; i++) {
      long bucket = request.buckets()[i];
      int target = request.targets()[i];
      int group = target >= 0 ? runGroup[target] : -1 - target;
      long[] sorted = groups[group];
      int[] starts = segmentStarts.computeIfAbsent(bucket, b -> new int[] {
          firstAtLeast(groups[0], LatencyBuckets.lowerBound(b), packing),
          firstAtLeast(groups[1], LatencyBuckets.lowerBound(b), packing)});
      int start = starts[group];
      if (target < 0) {
        values[i] = packing.latencyNs(sorted[Math.toIntExact(start + request.localRanks()[i])]);
      } else {
        long seen = -1;
        int at = start;
        for (; at < sorted.length; at++) {
          if (packing.run(sorted[at]) == target && ++seen == request.localRanks()[i]) {
            break;
          }
        }
        values[i] = packing.latencyNs(sorted[at]);
      }
    }
    return values;
  }

  /** max |C(x)·n_b − B(x)·n_c| over the distinct latencies here, with global counts below. */
  private static long ksScaled(StepRequest request, long[][] groups, RunPacking packing) {
    Map<Long, long[]> below = new HashMap<>();
    for (int k = 0; k < request.ksBuckets().length; k++) {
      below.put(request.ksBuckets()[k], new long[] {request.ksBaselineBelow()[k], request.ksCandidateBelow()[k]});
    }
    MergedCursor cursor = new MergedCursor(packing, groups[0], groups[1]);
    long bucketUpper = Long.MIN_VALUE;
    long baselineCount = 0;
    long candidateCount = 0;
    long max = 0;
    while (cursor.next()) {
      if (cursor.latencyNs > bucketUpper || bucketUpper == Long.MIN_VALUE) {
        long b = LatencyBuckets.of(cursor.latencyNs);
        bucketUpper = LatencyBuckets.upperBound(b);
        long[] offsets = below.get(b);
        baselineCount = offsets[0];
        candidateCount = offsets[1];
      }
      baselineCount += cursor.baselineTies;
      candidateCount += cursor.candidateTies;
      max = Math.max(max, Math.abs(Math.multiplyExact(candidateCount, request.ksBaselineN())
          - Math.multiplyExact(baselineCount, request.ksCandidateN())));
    }
    return max;
  }

  private static long[] latencies(long[] sorted, RunPacking packing) {
    long[] values = new long[sorted.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = packing.latencyNs(sorted[i]);
    }
    return values;
  }
}
