package dev.benchlake.analysis.engine;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Every successful latency of two groups of runs, sorted on the cluster — the engine behind
 * {@code benchlake compare}. Exact statistics at any size, and the rows never reach the driver.
 *
 * <p><b>How.</b> One scan: each input partition packs every latency with its run into a
 * {@code long} ({@link RunPacking}) and sends it to the partition that owns its (step,
 * {@link LatencyBuckets bucket}); buckets are hashed to partitions, so each is sorted whole in one
 * place. Partitions sort primitive arrays per step and group and stay cached. A first job
 * collects, per partition, counts per bucket and run, per-run moments, and the parts of the rank
 * statistics that stay within a bucket ({@link PartSummary}); the driver merges them into a
 * {@link StepLayout}, which turns any global rank into (partition, bucket, local rank). Later jobs
 * ({@link #query}) read values at ranks, the Kolmogorov–Smirnov statistic (each partition gets the
 * counts below each of its buckets) and small groups, all from the cached arrays.
 *
 * <p>Close it to release the cache.
 */
public final class SortedLatencies implements AutoCloseable {
  private final JavaSparkContext context;
  private final JavaRDD<SortedPartition> partitions;
  private final RunPacking packing;
  private final int[] runGroup;
  private final long thresholdNs;
  private final Map<String, StepLayout> layouts;
  private final List<RunCounts> counts;

  private SortedLatencies(JavaSparkContext context, JavaRDD<SortedPartition> partitions, RunPacking packing,
      int[] runGroup, long thresholdNs, List<RunCounts> knownCounts) {
    this.context = context;
    this.partitions = partitions;
    this.packing = packing;
    this.runGroup = runGroup;
    this.thresholdNs = thresholdNs;
    partitions.persist(StorageLevel.MEMORY_AND_DISK());
    int runs = runGroup.length;
    boolean collectCounts = knownCounts == null;
    List<Tuple2<List<PartSummary>, List<RunCounts>>> reports = partitions
        .map(p -> new Tuple2<>(p.summarize(packing, runs, thresholdNs), collectCounts ? p.counts : List.<RunCounts>of()))
        .collect();
    Map<String, List<PartSummary>> byStep = new TreeMap<>();
    Map<String, RunCounts> merged = new TreeMap<>();
    for (Tuple2<List<PartSummary>, List<RunCounts>> report : reports) {
      report._1().forEach(s -> byStep.computeIfAbsent(s.step(), k -> new ArrayList<>()).add(s));
      report._2().forEach(c -> merged.merge(c.step() + '\u0000' + c.run(), c, RunCounts::merge));
    }
    this.layouts = new TreeMap<>();
    byStep.forEach((step, parts) -> layouts.put(step, new StepLayout(step, parts, runGroup)));
    this.counts = knownCounts == null ? List.copyOf(merged.values()) : knownCounts;
  }

  /**
   * Sorts {@code input} ({@link EngineInput} columns).
   *
   * @param runs the runs to sort and their groups ({@link RunGrouping}); rows of other runs are
   *     left out
   * @param partitions how many partitions sort (and cache) the values; 0: twice the default
   *     parallelism, and at least as many as the input has
   * @param thresholdNs latencies below it are counted per run ({@link Long#MIN_VALUE}: none)
   */
  public static SortedLatencies sort(Dataset<Row> input, RunGrouping runs, int partitions, long thresholdNs) {
    RunPacking packing = RunPacking.forRuns(runs.runs());
    JavaRDD<InternalRow> rows = EngineInput.conform(input).queryExecution().toRdd().toJavaRDD();
    int count = partitionCount(input.sparkSession(), partitions, rows.getNumPartitions());
    return sorted(input.sparkSession(), rows.mapPartitionsToPair(new ChunkWriter(packing, count, runs.runIds())), packing,
        count, runs.groupOf(), thresholdNs);
  }

  /** As {@link #sort}, from the warehouse's raw tasks in column batches ({@link TaskBatches}). */
  static SortedLatencies sort(SparkSession spark, TaskBatches.Batches input, RunGrouping runs, int partitions,
      long thresholdNs) {
    RunPacking packing = RunPacking.forRuns(runs.runs());
    int count = partitionCount(spark, partitions, input.rdd().getNumPartitions());
    return sorted(spark, input.rdd().mapPartitionsToPair(new ChunkWriter(packing, count, runs.runIds())
        .overBatches(input.columns())), packing, count, runs.groupOf(), thresholdNs);
  }

  private static int partitionCount(SparkSession spark, int asked, int inputPartitions) {
    return asked > 0 ? asked : Math.max(2 * spark.sparkContext().defaultParallelism(), inputPartitions);
  }

  private static SortedLatencies sorted(SparkSession spark, JavaPairRDD<Integer, Chunk> chunks, RunPacking packing,
      int count, int[] runGroup, long thresholdNs) {
    int[] groups = runGroup.clone();
    JavaRDD<SortedPartition> sorted = chunks
        .partitionBy(new ByIndex(count))
        .mapPartitionsWithIndex((index, parts) -> single(SortedPartition.build(index, parts, packing, groups)), true);
    return new SortedLatencies(JavaSparkContext.fromSparkContext(spark.sparkContext()), sorted,
        packing, groups, thresholdNs, null);
  }

  /**
   * The same latencies restricted to {@code keep.get(step)[run] = {low, high}} (inclusive, one
   * range per run index) for the steps named; task counts stay those of all tasks.
   */
  public SortedLatencies keep(Map<String, long[][]> keep) {
    RunPacking p = packing;
    Map<String, long[][]> ranges = new HashMap<>(keep);
    return new SortedLatencies(context, partitions.map(part -> part.keep(ranges, p)), packing, runGroup, thresholdNs, counts);
  }

  /** The group of each run index: 0 baseline, 1 candidate. */
  public int[] runGroups() {
    return runGroup.clone();
  }

  /** How many partitions hold the sorted latencies. */
  public int partitions() {
    return partitions.getNumPartitions();
  }

  /** The steps that have at least one successful latency. */
  public java.util.Set<String> steps() {
    return layouts.keySet();
  }

  /** The layout of {@code step}, or null when it has no successful latency. */
  public StepLayout layout(String step) {
    return layouts.get(step);
  }

  /** The task counts of every run and step (all tasks, whatever their outcome). */
  public List<RunCounts> counts() {
    return counts;
  }

  /** Answers every query in one job. */
  public Map<String, StepAnswers> query(Map<String, StepQuery> queries) {
    Map<Integer, List<StepRequest>> requests = new HashMap<>();
    Map<Integer, List<long[]>> keys = new HashMap<>();
    Map<String, StepAnswers> answers = new TreeMap<>();
    int partitionCount = partitions.getNumPartitions();
    queries.forEach((step, query) -> {
      answers.put(step, new StepAnswers());
      StepLayout layout = layouts.get(step);
      PartitionLookups[] lookups = new PartitionLookups[partitionCount];
      Arrays.setAll(lookups, p -> new PartitionLookups());
      if (layout != null) {
        for (int g = 0; g < 2; g++) {
          for (long rank : query.groupRanks[g]) {
            StepLayout.Location at = layout.locateInGroup(g, rank);
            lookups[at.partition()].add(at, -1 - g, rank);
          }
        }
        for (var run : query.runRanks.entrySet()) {
          for (long rank : run.getValue()) {
            StepLayout.Location at = layout.locateInRun(run.getKey(), rank);
            lookups[at.partition()].add(at, run.getKey(), rank);
          }
        }
      }
      for (int p = 0; p < partitionCount; p++) {
        boolean ks = query.ks && layout != null && layout.n(0) > 0 && layout.n(1) > 0 && layout.holds(p);
        long[][] offsets = ks ? layout.ksOffsets(p) : new long[3][0];
        if (lookups[p].size() > 0 || ks || query.extract[0] || query.extract[1]) {
          requests.computeIfAbsent(p, k -> new ArrayList<>()).add(new StepRequest(step, lookups[p].buckets(),
              lookups[p].targets(), lookups[p].localRanks(), offsets[0], offsets[1], offsets[2],
              ks ? layout.n(0) : 0, ks ? layout.n(1) : 0, query.extract[0], query.extract[1]));
          keys.computeIfAbsent(p, k -> new ArrayList<>()).add(lookups[p].keys());
        }
      }
    });
    Broadcast<Map<Integer, List<StepRequest>>> shared = context.broadcast(requests);
    RunPacking p = packing;
    int[] groups = runGroup;
    List<Tuple2<Integer, List<StepRequest.Answer>>> replies = partitions
        .map(part -> new Tuple2<>(part.index, part.answer(shared.value().getOrDefault(part.index, List.of()), p, groups)))
        .collect();
    shared.destroy();
    Map<String, List<long[]>> extractedParts = new HashMap<>();
    for (Tuple2<Integer, List<StepRequest.Answer>> reply : replies) {
      List<StepRequest.Answer> stepAnswers = reply._2();
      for (int i = 0; i < stepAnswers.size(); i++) {
        StepRequest.Answer answer = stepAnswers.get(i);
        StepAnswers into = answers.get(answer.step());
        long[] requestKeys = keys.get(reply._1()).get(i);
        for (int j = 0; j < answer.values().length; j++) {
          int target = (int) requestKeys[2 * j];
          long rank = requestKeys[2 * j + 1];
          if (target < 0) {
            into.groupValues[-1 - target].put(rank, answer.values()[j]);
          } else {
            into.runValues.computeIfAbsent(target, r -> new HashMap<>()).put(rank, answer.values()[j]);
          }
        }
        into.ksScaled = Math.max(into.ksScaled, answer.ksScaled());
        for (int g = 0; g < 2; g++) {
          long[] values = g == 0 ? answer.baseline() : answer.candidate();
          if (values != null) {
            extractedParts.computeIfAbsent(answer.step() + '\u0000' + g, k -> new ArrayList<>()).add(values);
          }
        }
      }
    }
    answers.forEach((step, into) -> {
      for (int g = 0; g < 2; g++) {
        if (queries.get(step).extract[g]) {
          List<long[]> parts = extractedParts.getOrDefault(step + '\u0000' + g, List.of());
          long[] all = parts.stream().flatMapToLong(Arrays::stream).sorted().toArray();
          into.extracted[g] = all;
        }
      }
    });
    return answers;
  }

  /**
   * Intervals {@code [lows[i], highs[i]]} of one step and group whose latencies to count; of one
   * run of the group only when {@code run} is not negative.
   */
  public record CountRequest(String step, int group, int run, long[] lows, long[] highs) implements Serializable {
    /** The whole group's latencies. */
    public CountRequest(String step, int group, long[] lows, long[] highs) {
      this(step, group, -1, lows, highs);
    }
  }

  /** How many latencies lie in each interval of each request, in one job. */
  public List<long[]> countWithin(List<CountRequest> requests) {
    RunPacking p = packing;
    List<CountRequest> shared = List.copyOf(requests);
    return partitions
        .map(part -> shared.stream().map(r -> part.countWithin(r.step(), r.group(), r.run(), r.lows(), r.highs(), p)).toList())
        .reduce((a, b) -> {
          List<long[]> sums = new ArrayList<>();
          for (int r = 0; r < a.size(); r++) {
            long[] sum = a.get(r).clone();
            for (int i = 0; i < sum.length; i++) {
              sum[i] += b.get(r)[i];
            }
            sums.add(sum);
          }
          return sums;
        });
  }

  @Override
  public void close() {
    partitions.unpersist(false);
  }

  private static <T> Iterator<T> single(T value) {
    return List.of(value).iterator();
  }

  /** The lookups of one step in one partition, and which (target, rank) each answers. */
  private static final class PartitionLookups {
    private long[] buckets = new long[16];
    private int[] targets = new int[16];
    private long[] localRanks = new long[16];
    private long[] ranks = new long[16];
    private int size;

    void add(StepLayout.Location at, int target, long rank) {
      if (size == buckets.length) {
        buckets = Arrays.copyOf(buckets, 2 * size);
        targets = Arrays.copyOf(targets, 2 * size);
        localRanks = Arrays.copyOf(localRanks, 2 * size);
        ranks = Arrays.copyOf(ranks, 2 * size);
      }
      buckets[size] = at.bucket();
      targets[size] = target;
      localRanks[size] = at.localRank();
      ranks[size++] = rank;
    }

    int size() {
      return size;
    }

    long[] buckets() {
      return Arrays.copyOf(buckets, size);
    }

    int[] targets() {
      return Arrays.copyOf(targets, size);
    }

    long[] localRanks() {
      return Arrays.copyOf(localRanks, size);
    }

    /** (target, rank) pairs, flattened. */
    long[] keys() {
      long[] keys = new long[2 * size];
      for (int i = 0; i < size; i++) {
        keys[2 * i] = targets[i];
        keys[2 * i + 1] = ranks[i];
      }
      return keys;
    }
  }

  /** Sends the chunk keyed {@code p} to partition {@code p}. */
  private static final class ByIndex extends Partitioner implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int partitions;

    ByIndex(int partitions) {
      this.partitions = partitions;
    }

    @Override
    public int numPartitions() {
      return partitions;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof ByIndex b && b.partitions == partitions;
    }

    @Override
    public int hashCode() {
      return partitions;
    }
  }
}
