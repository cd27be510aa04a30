package dev.benchlake.analysis.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.SchemaColumns;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sort from Parquet's column batches ({@link WarehouseTasks#sort}) against the sort of
 * {@link WarehouseTasks#input}'s rows, whose every figure {@code SortedLatenciesTest} proves: the
 * same counts, errors, end times, moments and values at every rank, with warm-up tasks, failures
 * (SQLSTATE, a multi-line message, neither), tasks without latency or end time, a run not asked
 * for, a step filter, files with and without Parquet dictionaries, more rows than a batch.
 */
class WarehouseTasksTest extends SparkTestBase {
  private static final List<String> RUN_IDS = List.of("sysbench-0123456789abcdef", "r1", "run-two", "r3");
  private static final RunGrouping RUNS = new RunGrouping(RUN_IDS, new int[] {0, 0, 1, 1});
  private static final List<String> STEPS = List.of("select", "a-step-longer-than-sixteen-bytes");

  @TempDir
  Path tmp;

  private static List<Row> tasks(int seed, int perRun) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> runs = new ArrayList<>(RUN_IDS);
    runs.add("uncommitted");
    List<Row> rows = new ArrayList<>();
    long line = 0;
    for (String run : runs) {
      for (String step : STEPS) {
        for (int i = 0; i < perRun; i++) {
          boolean ok = random.nextInt(40) != 0;
          long latency = Math.round(Math.exp(13 + 0.6 * random.nextGaussian()) / 100) * 100;
          long start = 1_700_000_000_000L + 7 * i;
          Map<String, Object> v = new HashMap<>();
          v.put(WarehouseSchema.RUN_ID, run);
          v.put(WarehouseSchema.STEP, step);
          v.put("client_id", i % 8);
          v.put("seq", (long) i);
          v.put(WarehouseSchema.START_TS, new Timestamp(start));
          v.put(WarehouseSchema.END_TS, i % 311 == 0 ? null : new Timestamp(start + latency / 1_000_000));
          v.put(WarehouseSchema.LATENCY_NS, ok && i % 173 != 0 ? latency : null);
          v.put(WarehouseSchema.WARMUP, i < 50);
          v.put(WarehouseSchema.OK, ok);
          v.put("sqlstate", !ok && i % 3 == 0 ? "40001" : null);
          v.put("error", !ok && i % 3 == 1 ? "deadlock detected " + "x".repeat(i % 200) + "\nDETAIL: process " + i : null);
          v.put(WarehouseSchema.SOURCE_LINE, ++line);
          rows.add(SchemaColumns.row(WarehouseSchema.TASKS, v));
        }
      }
    }
    return rows;
  }

  @Test
  void batchesGiveWhatRowsGive() {
    Warehouse warehouse = Warehouse.at(spark, tmp.resolve("warehouse").toString());
    String path = warehouse.path(Table.TASKS);
    spark.createDataFrame(tasks(3, 2500), WarehouseSchema.TASKS).repartition(2).write().format("delta").save(path);
    // Session settings reach the writer's Hadoop configuration: this file's strings are plain.
    spark.conf().set("parquet.enable.dictionary", "false");
    try {
      spark.createDataFrame(tasks(5, 600), WarehouseSchema.TASKS).write().format("delta").mode("append").save(path);
    } finally {
      spark.conf().unset("parquet.enable.dictionary");
    }
    var table = spark.read().format("delta").load(path);
    assertThat(TaskBatches.of(table, List.of())).as("%s", table.select(TaskBatches.COLUMNS.stream()
        .map(org.apache.spark.sql.functions::col).toArray(org.apache.spark.sql.Column[]::new))
        .queryExecution().executedPlan()).isPresent();

    for (List<String> steps : List.of(List.<String>of(), List.of(STEPS.get(1)))) {
      try (SortedLatencies rows = SortedLatencies.sort(WarehouseTasks.input(warehouse, steps), RUNS, 3,
              600_000);
          SortedLatencies batches = WarehouseTasks.sort(warehouse, steps, RUNS, 3, 600_000)) {
        assertThat(batches.counts()).containsExactlyInAnyOrderElementsOf(rows.counts());
        assertThat(batches.counts()).isNotEmpty().allSatisfy(c -> assertThat(c.errorsByCode()).isNotEmpty());
        assertThat(batches.steps()).isEqualTo(rows.steps()).hasSize(steps.isEmpty() ? 2 : 1);
        for (String step : rows.steps()) {
          StepLayout expected = rows.layout(step);
          StepLayout actual = batches.layout(step);
          Map<String, StepQuery> query = new TreeMap<>();
          StepQuery q = new StepQuery();
          for (int r = 0; r < RUN_IDS.size(); r++) {
            assertThat(actual.runN(r)).isEqualTo(expected.runN(r)).isPositive();
            assertThat(actual.runMoments(r)).isEqualTo(expected.runMoments(r));
            assertThat(actual.runUnderThreshold(r)).isEqualTo(expected.runUnderThreshold(r));
            // Every third rank and the last: values from every bucket, in fewer lookups.
            q.runRanks(r, java.util.stream.LongStream.concat(java.util.stream.LongStream.range(0, expected.runN(r))
                .filter(i -> i % 3 == 0), java.util.stream.LongStream.of(expected.runN(r) - 1)).toArray());
          }
          query.put(step, q);
          StepAnswers want = rows.query(query).get(step);
          StepAnswers got = batches.query(query).get(step);
          for (int r = 0; r < RUN_IDS.size(); r++) {
            for (long i = 0; i < expected.runN(r); i += 3) {
              assertThat(got.runValue(r, i)).isEqualTo(want.runValue(r, i));
            }
            assertThat(got.runValue(r, expected.runN(r) - 1)).isEqualTo(want.runValue(r, expected.runN(r) - 1));
          }
        }
      }
    }
  }
}
