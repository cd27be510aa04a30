package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.stats.LinearQuantile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns an {@link OutlierPolicy} into the interval of latencies kept per step and <em>run</em>,
 * computed exactly on the sorted data: the quantiles the fences need come from one query; the
 * MAD, a median of deviations, by a search over its value (each round counts, in one job, how many
 * latencies lie within each of 64 candidate distances of the median).
 *
 * <p>Fences are fitted on each run's own latencies, never on a pooled group: pooled fences would
 * trim the slow runs' tails and the fast runs' heads, i.e. exactly the run-to-run variance that the
 * run-level interval must see.
 */
final class Outliers {
  private static final long[] KEEP_ALL = {Long.MIN_VALUE, Long.MAX_VALUE};
  private static final int PROBES = 64;

  private Outliers() {}

  /** {@code step → [run] → {lowest kept, highest kept}}, for {@code runs} run indexes. */
  static Map<String, long[][]> keepRanges(SortedLatencies sorted, List<String> steps, OutlierPolicy policy, int runs) {
    double[] probabilities = policy.quantilesNeeded();
    Map<String, StepQuery> queries = new TreeMap<>();
    for (String step : steps) {
      StepLayout layout = sorted.layout(step);
      StepQuery query = new StepQuery();
      for (int r = 0; r < runs && layout != null; r++) {
        long n = layout.runN(r);
        if (n > 0) {
          query.runRanks(r, 0, n - 1);
          for (double p : probabilities) {
            LinearQuantile.Position at = LinearQuantile.position(n, p);
            query.runRanks(r, at.lowerRank(), at.upperRank());
          }
        }
      }
      queries.put(step, query);
    }
    Map<String, StepAnswers> answers = sorted.query(queries);
    Map<String, long[][]> ranges = new HashMap<>();
    for (String step : steps) {
      StepLayout layout = sorted.layout(step);
      long[][] keep = new long[runs][];
      java.util.Arrays.fill(keep, KEEP_ALL);
      for (int r = 0; r < runs && layout != null; r++) {
        long n = layout.runN(r);
        if (n > 0 && policy instanceof OutlierPolicy.QuantileFences byQuantiles) {
          StepAnswers a = answers.get(step);
          int run = r;
          java.util.function.DoubleUnaryOperator q = p -> {
            LinearQuantile.Position at = LinearQuantile.position(n, p);
            return at.interpolate(a.runValue(run, at.lowerRank()), a.runValue(run, at.upperRank()));
          };
          double[] fences = byQuantiles.fences(q);
          keep[r] = between(fences[0], fences[1]);
        }
      }
      ranges.put(step, keep);
    }
    if (policy instanceof OutlierPolicy.Mad mad) {
      madRanges(sorted, answers, steps, mad, ranges, runs);
    }
    return ranges;
  }

  /** The integers x with {@code low ≤ x ≤ high}. */
  private static long[] between(double low, double high) {
    return new long[] {toLong(Math.ceil(low)), toLong(Math.floor(high))};
  }

  private static long toLong(double value) {
    return value >= 0x1p63 ? Long.MAX_VALUE : value <= -0x1p63 ? Long.MIN_VALUE : (long) value;
  }

  /** The MAD fences of every (step, run) the policy applies to, all searches in the same jobs. */
  private static void madRanges(SortedLatencies sorted, Map<String, StepAnswers> answers, List<String> steps,
      OutlierPolicy.Mad policy, Map<String, long[][]> ranges, int runs) {
    int[] groupOf = sorted.runGroups();
    List<DeviationSearch> searches = new ArrayList<>();
    for (String step : steps) {
      StepLayout layout = sorted.layout(step);
      for (int r = 0; r < runs && layout != null; r++) {
        if (layout.runN(r) > 0) {
          searches.add(new DeviationSearch(step, groupOf[r], r, layout.runN(r), answers.get(step)));
        }
      }
    }
    while (searches.stream().anyMatch(DeviationSearch::searching)) {
      List<DeviationSearch> active = searches.stream().filter(DeviationSearch::searching).toList();
      List<long[]> counts = sorted.countWithin(active.stream().map(DeviationSearch::probes).toList());
      for (int i = 0; i < active.size(); i++) {
        active.get(i).narrow(counts.get(i));
      }
    }
    for (DeviationSearch search : searches) {
      ranges.get(search.step)[search.run] = search.keepRange(policy);
    }
  }

  /**
   * Finds the MAD of one run: the median of {@code |2x − 2·median|} (doubled so that a median
   * between two latencies stays an integer), as one or two order statistics — each the smallest
   * {@code d} such that more than {@code rank} latencies lie within {@code d/2} of the median,
   * narrowed 64-fold per round by counting at 64 candidate distances.
   */
  private static final class DeviationSearch {
    final String step;
    final int group;
    final int run;
    final long twoMedian;
    final double median;
    final long[] ranks;
    final long[] low;
    final long[] high;
    private long[][] distances;

    DeviationSearch(String step, int group, int run, long n, StepAnswers a) {
      this.step = step;
      this.group = group;
      this.run = run;
      LinearQuantile.Position at = LinearQuantile.position(n, 0.5);
      long lowerMiddle = a.runValue(run, at.lowerRank());
      long upperMiddle = a.runValue(run, at.upperRank());
      twoMedian = at.weight() == 0 ? 2 * lowerMiddle : lowerMiddle + upperMiddle;
      median = at.interpolate(lowerMiddle, upperMiddle);
      long widest = Math.max(twoMedian - 2 * a.runValue(run, 0), 2 * a.runValue(run, n - 1) - twoMedian);
      ranks = n % 2 == 1 ? new long[] {(n - 1) / 2} : new long[] {n / 2 - 1, n / 2};
      low = new long[ranks.length];
      high = new long[ranks.length];
      java.util.Arrays.fill(high, widest);
    }

    boolean searching() {
      for (int r = 0; r < ranks.length; r++) {
        if (low[r] < high[r]) {
          return true;
        }
      }
      return false;
    }

    SortedLatencies.CountRequest probes() {
      distances = new long[ranks.length][];
      List<long[]> intervals = new ArrayList<>();
      for (int r = 0; r < ranks.length; r++) {
        long stride = Math.max(1, (high[r] - low[r]) / PROBES);
        int count = low[r] < high[r] ? (int) Math.min(PROBES, (high[r] - low[r] + stride - 1) / stride) : 0;
        distances[r] = new long[count];
        for (int i = 0; i < count; i++) {
          distances[r][i] = low[r] + i * stride;
          intervals.add(new long[] {-Math.floorDiv(distances[r][i] - twoMedian, 2), Math.floorDiv(twoMedian + distances[r][i], 2)});
        }
      }
      return new SortedLatencies.CountRequest(step, group, run, intervals.stream().mapToLong(i -> i[0]).toArray(),
          intervals.stream().mapToLong(i -> i[1]).toArray());
    }

    void narrow(long[] within) {
      int offset = 0;
      for (int r = 0; r < ranks.length; r++) {
        long[] d = distances[r];
        int first = d.length;
        for (int i = 0; i < d.length; i++) {
          if (within[offset + i] >= ranks[r] + 1) {
            first = i;
            break;
          }
        }
        if (d.length > 0) {
          if (first < d.length) {
            high[r] = d[first];
          }
          low[r] = first == 0 ? low[r] : d[first - 1] + 1;
        }
        offset += d.length;
      }
    }

    long[] keepRange(OutlierPolicy.Mad policy) {
      double mad = ranks.length == 1 ? low[0] / 2.0 : (low[0] + low[1]) / 4.0;
      if (mad == 0) {
        return KEEP_ALL;
      }
      double reach = policy.z() * mad / OutlierPolicy.Mad.SCALE;
      long lowest = toLong(Math.floor(median - reach));
      long highest = toLong(Math.ceil(median + reach));
      // Settle the boundaries on the policy's own expression, so that rounding cannot move them.
      while (!policy.keeps(lowest, median, mad)) {
        lowest++;
      }
      while (policy.keeps(lowest - 1, median, mad)) {
        lowest--;
      }
      while (!policy.keeps(highest, median, mad)) {
        highest--;
      }
      while (policy.keeps(highest + 1, median, mad)) {
        highest++;
      }
      return new long[] {lowest, highest};
    }
  }
}
