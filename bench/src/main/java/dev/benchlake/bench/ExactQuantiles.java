package dev.benchlake.bench;

import dev.benchlake.analysis.engine.LatencyBuckets;
import dev.benchlake.analysis.stats.LinearQuantile;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * Exact quantiles per group of a large dataset, by numpy's {@code linear} definition, without
 * sorting and without bringing the rows to the driver.
 *
 * <p><b>How.</b> The values are read once into primitive arrays per partition and group (cached).
 * A first pass counts them per {@link LatencyBuckets bucket}; every quantile needs one or two
 * order statistics, and the counts tell which bucket holds each and its rank inside. A second
 * pass collects only the values of those buckets (a bucket spans at most 0.4 % of its values, so
 * typically a fraction of a percent of the data), which the driver sorts to read the exact values.
 * A bucket too full to collect ({@value #COLLECT_LIMIT} values) is split into
 * {@value #SPLIT} equal sub-ranges by a further pass, until it is small enough or a single value.
 */
public final class ExactQuantiles {
  /** Most values collected for one interval. */
  static final int COLLECT_LIMIT = 2_000_000;
  static final int SPLIT = 4096;

  private ExactQuantiles() {}

  /**
   * @param data two columns: the group (any type, compared as text) and the value ({@code long})
   * @return per group, the quantile at each probability
   */
  public static Map<String, double[]> of(Dataset<Row> data, double... probabilities) {
    return of(data, COLLECT_LIMIT, probabilities);
  }

  /** As {@link #of(Dataset, double...)}, collecting at most {@code collectLimit} values per interval. */
  static Map<String, double[]> of(Dataset<Row> data, int collectLimit, double... probabilities) {
    JavaRDD<GroupedValues> cached = data.selectExpr("cast(" + quote(data.columns()[0]) + " as string)",
            "cast(" + quote(data.columns()[1]) + " as long)")
        .queryExecution().toRdd().toJavaRDD()
        .mapPartitions(rows -> List.of(GroupedValues.read(rows)).iterator())
        .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      Map<String, Long> counts = new TreeMap<>();
      // Pass 1: counts per log bucket; each target rank gets the bucket that holds it.
      Map<String, TreeMap<Long, Long>> histograms = histograms(cached);
      Map<String, List<Target>> targets = new TreeMap<>();
      histograms.forEach((group, histogram) -> {
        long n = histogram.values().stream().mapToLong(Long::longValue).sum();
        counts.put(group, n);
        List<Target> list = new ArrayList<>();
        for (double p : probabilities) {
          LinearQuantile.Position at = LinearQuantile.position(n, p);
          list.add(new Target(group, at.lowerRank(), locate(group, histogram, at.lowerRank())));
          list.add(new Target(group, at.upperRank(), locate(group, histogram, at.upperRank())));
        }
        targets.put(group, list);
      });
      // Later passes: collect small intervals, split large ones, until every rank has its value.
      while (pending(targets)) {
        refine(cached, targets, collectLimit);
      }
      Map<String, double[]> quantiles = new TreeMap<>();
      targets.forEach((group, list) -> {
        double[] q = new double[probabilities.length];
        for (int i = 0; i < probabilities.length; i++) {
          LinearQuantile.Position at = LinearQuantile.position(counts.get(group), probabilities[i]);
          q[i] = at.interpolate(list.get(2 * i).value, list.get(2 * i + 1).value);
        }
        quantiles.put(group, q);
      });
      return quantiles;
    } finally {
      cached.unpersist(false);
    }
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  /** Whether a target still needs its value (settling those whose interval is a single value). */
  private static boolean pending(Map<String, List<Target>> targets) {
    boolean pending = false;
    for (List<Target> list : targets.values()) {
      for (Target t : list) {
        pending |= !t.resolved();
      }
    }
    return pending;
  }

  /**
   * Values of {@code group} in {@code [low, high]}, of which {@code count}; {@code below} values
   * of the group are lower.
   */
  private record Interval(String group, long low, long high, long below, long count) implements Serializable {
    boolean contains(long v) {
      return v >= low && v <= high;
    }
  }

  /** One order statistic of a group: where it is known to lie, and its value once known. */
  private static final class Target {
    final String group;
    final long rank;
    Interval interval;
    long value;

    Target(String group, long rank, Interval interval) {
      this.group = group;
      this.rank = rank;
      this.interval = interval;
    }

    /** True once the value is known; an interval of one value is its value. */
    boolean resolved() {
      if (interval != null && interval.low() == interval.high()) {
        value = interval.low();
        interval = null;
      }
      return interval == null;
    }
  }

  private static Map<String, TreeMap<Long, Long>> histograms(JavaRDD<GroupedValues> cached) {
    List<Map<String, TreeMap<Long, Long>>> parts = cached.map(ExactQuantiles::histogram).collect();
    Map<String, TreeMap<Long, Long>> merged = new TreeMap<>();
    for (Map<String, TreeMap<Long, Long>> part : parts) {
      part.forEach((group, h) -> {
        TreeMap<Long, Long> into = merged.computeIfAbsent(group, g -> new TreeMap<>());
        h.forEach((bucket, n) -> into.merge(bucket, n, Long::sum));
      });
    }
    return merged;
  }

  /** Counts per bucket of each group, over a dense array spanning the buckets seen. */
  private static Map<String, TreeMap<Long, Long>> histogram(GroupedValues part) {
    Map<String, TreeMap<Long, Long>> result = new HashMap<>();
    for (int g = 0; g < part.groups.size(); g++) {
      long[] values = part.values.get(g);
      if (values.length == 0) {
        continue;
      }
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (long v : values) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      long first = LatencyBuckets.of(min);
      long[] counts = new long[Math.toIntExact(LatencyBuckets.of(max) - first + 1)];
      for (long v : values) {
        counts[(int) (LatencyBuckets.of(v) - first)]++;
      }
      TreeMap<Long, Long> h = new TreeMap<>();
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] > 0) {
          h.put(first + i, counts[i]);
        }
      }
      result.merge(part.groups.get(g), h, (a, b) -> {
        b.forEach((k, v) -> a.merge(k, v, Long::sum));
        return a;
      });
    }
    return result;
  }

  /** The bucket (as an interval) that holds the value of 0-based {@code rank}. */
  private static Interval locate(String group, TreeMap<Long, Long> histogram, long rank) {
    long below = 0;
    for (Map.Entry<Long, Long> e : histogram.entrySet()) {
      if (rank < below + e.getValue()) {
        return new Interval(group, LatencyBuckets.lowerBound(e.getKey()), LatencyBuckets.upperBound(e.getKey()), below,
            e.getValue());
      }
      below += e.getValue();
    }
    throw new IllegalStateException("rank " + rank + " beyond " + below + " values");
  }

  /** One pass over the cached values for every pending interval. */
  private static void refine(JavaRDD<GroupedValues> cached, Map<String, List<Target>> targets, int collectLimit) {
    Map<String, List<Interval>> collect = new HashMap<>();
    Map<String, List<Interval>> split = new HashMap<>();
    for (List<Target> list : targets.values()) {
      for (Target t : list) {
        if (t.interval != null) {
          Map<String, List<Interval>> into = t.interval.count() <= collectLimit ? collect : split;
          List<Interval> intervals = into.computeIfAbsent(t.group, g -> new ArrayList<>());
          if (!intervals.contains(t.interval)) {
            intervals.add(t.interval);
          }
        }
      }
    }
    List<Map<Interval, long[]>> collected = cached.map(part -> collect(part, collect)).collect();
    List<Map<Interval, long[]>> splitCounts = split.isEmpty() ? List.of() : cached.map(part -> splitCounts(part, split)).collect();
    Map<Interval, long[]> values = new HashMap<>();
    for (Map<Interval, long[]> part : collected) {
      part.forEach((interval, v) -> values.merge(interval, v, ExactQuantiles::concat));
    }
    values.values().forEach(Arrays::sort);
    Map<Interval, long[]> counts = new HashMap<>();
    for (Map<Interval, long[]> part : splitCounts) {
      part.forEach((interval, c) -> counts.merge(interval, c, ExactQuantiles::add));
    }
    for (List<Target> list : targets.values()) {
      for (Target t : list) {
        if (t.interval == null) {
          continue;
        }
        long local = t.rank - t.interval.below();
        long[] sorted = values.get(t.interval);
        if (sorted != null) {
          t.value = sorted[(int) local];
          t.interval = null;
        } else {
          t.interval = subInterval(t.interval, counts.get(t.interval), local);
        }
      }
    }
  }

  private static Map<Interval, long[]> collect(GroupedValues part, Map<String, List<Interval>> wanted) {
    Map<Interval, long[]> out = new HashMap<>();
    for (int g = 0; g < part.groups.size(); g++) {
      Interval[] intervals = sortedByLow(wanted.get(part.groups.get(g)));
      if (intervals.length == 0) {
        continue;
      }
      long[][] buffers = new long[intervals.length][16];
      int[] fills = new int[intervals.length];
      for (long v : part.values.get(g)) {
        int i = containing(intervals, v);
        if (i >= 0) {
          if (fills[i] == buffers[i].length) {
            buffers[i] = Arrays.copyOf(buffers[i], 2 * fills[i]);
          }
          buffers[i][fills[i]++] = v;
        }
      }
      for (int i = 0; i < intervals.length; i++) {
        out.put(intervals[i], Arrays.copyOf(buffers[i], fills[i]));
      }
    }
    return out;
  }

  private static Map<Interval, long[]> splitCounts(GroupedValues part, Map<String, List<Interval>> wanted) {
    Map<Interval, long[]> out = new HashMap<>();
    for (int g = 0; g < part.groups.size(); g++) {
      Interval[] intervals = sortedByLow(wanted.get(part.groups.get(g)));
      if (intervals.length == 0) {
        continue;
      }
      long[][] counts = new long[intervals.length][SPLIT];
      for (long v : part.values.get(g)) {
        int i = containing(intervals, v);
        if (i >= 0) {
          counts[i][subIndex(intervals[i], v)]++;
        }
      }
      for (int i = 0; i < intervals.length; i++) {
        out.put(intervals[i], counts[i]);
      }
    }
    return out;
  }

  /** The intervals of one group (disjoint), by ascending lower bound; empty when none. */
  private static Interval[] sortedByLow(List<Interval> intervals) {
    return intervals == null ? new Interval[0]
        : intervals.stream().sorted(java.util.Comparator.comparingLong(Interval::low)).toArray(Interval[]::new);
  }

  /** The index of the interval holding {@code v}, or −1: a binary search over disjoint intervals. */
  private static int containing(Interval[] sorted, long v) {
    int low = 0;
    int high = sorted.length - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (v < sorted[mid].low()) {
        high = mid - 1;
      } else if (v > sorted[mid].high()) {
        low = mid + 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /** Which of {@value #SPLIT} equal sub-ranges of {@code interval} holds {@code v}. */
  private static int subIndex(Interval interval, long v) {
    double width = ((double) interval.high() - interval.low() + 1) / SPLIT;
    return (int) Math.min(SPLIT - 1, (long) ((v - interval.low()) / width));
  }

  private static Interval subInterval(Interval interval, long[] counts, long local) {
    double width = ((double) interval.high() - interval.low() + 1) / SPLIT;
    long below = interval.below();
    for (int i = 0; i < SPLIT; i++) {
      if (local < counts[i]) {
        long low = interval.low() + (long) Math.ceil(i * width);
        long high = i == SPLIT - 1 ? interval.high() : interval.low() + (long) Math.ceil((i + 1) * width) - 1;
        // Settle integer edges on subIndex itself, which decided the counts.
        while (low > interval.low() && subIndex(interval, low - 1) == i) {
          low--;
        }
        while (subIndex(interval, low) < i) {
          low++;
        }
        while (high < interval.high() && subIndex(interval, high + 1) == i) {
          high++;
        }
        while (subIndex(interval, high) > i) {
          high--;
        }
        return new Interval(interval.group(), low, high, below, counts[i]);
      }
      local -= counts[i];
      below += counts[i];
    }
    throw new IllegalStateException("rank outside its interval");
  }

  private static long[] concat(long[] a, long[] b) {
    long[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static long[] add(long[] a, long[] b) {
    long[] sum = a.clone();
    for (int i = 0; i < sum.length; i++) {
      sum[i] += b[i];
    }
    return sum;
  }
}
