package dev.benchlake.analysis.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.KolmogorovSmirnov;
import dev.benchlake.analysis.stats.MannWhitneyU;
import dev.benchlake.analysis.stats.Moments;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The distributed engine against the same figures computed in memory from all the values: every
 * rank of every group and run, U, ties, D, moments, counts — for several partition counts, so that
 * buckets, partitions and chunks fall differently each time.
 */
@org.junit.jupiter.api.Tag("integration")
class SortedLatenciesTest extends SparkTestBase {
  private static final int[] RUN_GROUP = {0, 0, 0, 1, 1};
  private static final String[] STEPS = {"select", "update"};
  /** The runs sorted, by index; tasks of "uncommitted", not among them, must be left out. */
  private static final List<String> RUN_IDS = List.of("run-a", "run-b", "run-c", "run-d", "run-e");

  private record Task(String step, int run, Long latencyNs, boolean ok, String code) {}

  private static List<Task> tasks() {
    SplittableRandom random = new SplittableRandom(11);
    List<Task> tasks = new ArrayList<>();
    for (String step : STEPS) {
      for (int run = 0; run < RUN_GROUP.length; run++) {
        int n = 300 + random.nextInt(400);
        for (int i = 0; i < n; i++) {
          boolean ok = random.nextInt(50) != 0;
          // Round a lognormal to 1000 ns so that ties abound, with a spread over many buckets.
          long latency = Math.round(Math.exp(13 + 0.8 * random.nextGaussian() + (RUN_GROUP[run] == 1 ? 0.1 : 0)) / 1000) * 1000;
          if (i % 97 == 0) {
            latency = 0;
          }
          tasks.add(new Task(step, run, ok ? latency : null, ok, ok ? null : (i % 2 == 0 ? "40001" : "57014")));
        }
      }
    }
    return tasks;
  }

  private static Dataset<Row> input(List<Task> tasks) {
    List<Row> rows = new ArrayList<>();
    long t = 1_700_000_000_000_000L;
    for (Task task : tasks) {
      rows.add(RowFactory.create(task.step(), RUN_IDS.get(task.run()), task.latencyNs(), task.ok(), task.code(),
          task.ok() ? t : null));
      // Interleaved tasks of a run not asked for, which would shift every figure if kept.
      rows.add(RowFactory.create(task.step(), "uncommitted", task.ok() ? 1L : null, task.ok(), task.code(), t));
      t += 10;
    }
    return spark.createDataFrame(rows, EngineInput.SCHEMA).repartition(3);
  }

  private static long[] sorted(List<Task> tasks, String step, int group, int run) {
    return tasks.stream()
        .filter(t -> t.step().equals(step) && t.ok() && (run >= 0 ? t.run() == run : RUN_GROUP[t.run()] == group))
        .mapToLong(Task::latencyNs).sorted().toArray();
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 3, 7})
  void everyFigureEqualsTheInMemoryComputation(int partitions) {
    List<Task> tasks = tasks();
    long threshold = 500_000;
    try (SortedLatencies sorted = SortedLatencies.sort(input(tasks), new RunGrouping(RUN_IDS, RUN_GROUP), partitions, threshold)) {
      assertThat(sorted.steps()).containsExactly(STEPS);
      Map<String, StepQuery> queries = new TreeMap<>();
      for (String step : STEPS) {
        StepQuery query = new StepQuery().ks().extract(0);
        StepLayout layout = sorted.layout(step);
        for (int g = 0; g < 2; g++) {
          query.groupRanks(g, allRanks(layout.n(g)));
        }
        for (int run = 0; run < RUN_GROUP.length; run++) {
          query.runRanks(run, allRanks(layout.runN(run)));
        }
        queries.put(step, query);
      }
      Map<String, StepAnswers> answers = sorted.query(queries);
      for (String step : STEPS) {
        StepLayout layout = sorted.layout(step);
        StepAnswers answer = answers.get(step);
        long[] base = sorted(tasks, step, 0, -1);
        long[] cand = sorted(tasks, step, 1, -1);
        assertThat(layout.n(0)).isEqualTo(base.length);
        assertThat(layout.n(1)).isEqualTo(cand.length);
        for (int r = 0; r < base.length; r++) {
          assertThat(answer.groupValue(0, r)).isEqualTo(base[r]);
        }
        for (int r = 0; r < cand.length; r++) {
          assertThat(answer.groupValue(1, r)).isEqualTo(cand[r]);
        }
        for (int run = 0; run < RUN_GROUP.length; run++) {
          long[] values = sorted(tasks, step, -1, run);
          assertThat(layout.runN(run)).isEqualTo(values.length);
          for (int r = 0; r < values.length; r++) {
            assertThat(answer.runValue(run, r)).isEqualTo(values[r]);
          }
          assertThat(layout.runMoments(run)).isEqualTo(Moments.of(values));
          assertThat(layout.runUnderThreshold(run)).isEqualTo(Arrays.stream(values).filter(v -> v < threshold).count());
        }
        MannWhitneyU.Result u = MannWhitneyU.test(Arrays.stream(cand).asDoubleStream().toArray(),
            Arrays.stream(base).asDoubleStream().toArray());
        assertThat(layout.twoU()).isEqualTo(Math.round(2 * u.u()));
        assertThat(MannWhitneyU.normal(cand.length, base.length, layout.twoU() / 2.0, layout.tieTerm()).p())
            .isCloseTo(u.p(), Offset.offset(1e-12));
        assertThat(answer.ksScaled()).isEqualTo(KolmogorovSmirnov.scaledStatistic(base, cand));
        assertThat(answer.extracted(0)).isEqualTo(base);
      }
      assertTaskCounts(sorted.counts(), tasks);
    }
  }

  @ParameterizedTest(name = "{0} partitions")
  @ValueSource(ints = {1, 4})
  void keepRestrictsValuesAndCountWithinCounts(int partitions) {
    List<Task> tasks = tasks();
    try (SortedLatencies sorted = SortedLatencies.sort(input(tasks), new RunGrouping(RUN_IDS, RUN_GROUP), partitions, Long.MIN_VALUE)) {
      long[] base = sorted(tasks, "select", 0, -1);
      long[] counts = sorted.countWithin(List.of(new SortedLatencies.CountRequest("select", 0,
          new long[] {0, 100_000, 1_000_000}, new long[] {0, 400_000, Long.MAX_VALUE}))).get(0);
      assertThat(counts).containsExactly(
          Arrays.stream(base).filter(v -> v == 0).count(),
          Arrays.stream(base).filter(v -> v >= 100_000 && v <= 400_000).count(),
          Arrays.stream(base).filter(v -> v >= 1_000_000).count());
      try (SortedLatencies kept = sorted.keep(Map.of("select", new long[][] {
          {100_000, 400_000}, {100_000, 400_000}, {100_000, 400_000}, {0, 50_000}, {0, 50_000}}))) {
        assertThat(kept.layout("select").n(0)).isEqualTo(counts[1]);
        assertThat(kept.layout("select").n(1))
            .isEqualTo(Arrays.stream(sorted(tasks, "select", 1, -1)).filter(v -> v <= 50_000).count());
        assertThat(kept.layout("update").n(0)).isEqualTo(sorted.layout("update").n(0));
        assertThat(kept.counts()).isEqualTo(sorted.counts());
      }
    }
  }

  private static long[] allRanks(long n) {
    long[] ranks = new long[(int) n];
    Arrays.setAll(ranks, i -> i);
    return ranks;
  }

  private static void assertTaskCounts(List<RunCounts> counts, List<Task> tasks) {
    assertThat(counts).hasSize(STEPS.length * RUN_GROUP.length);
    for (RunCounts c : counts) {
      List<Task> mine = tasks.stream().filter(t -> t.step().equals(c.step()) && t.run() == c.run()).toList();
      assertThat(c.tasks()).isEqualTo(mine.size());
      assertThat(c.ok()).isEqualTo(mine.stream().filter(Task::ok).count());
      Map<String, Long> errors = new TreeMap<>();
      mine.stream().filter(t -> !t.ok()).forEach(t -> errors.merge(t.code(), 1L, Long::sum));
      assertThat(c.errorsByCode()).isEqualTo(errors);
      assertThat(c.throughputPerS()).isGreaterThan(0);
    }
  }
}
