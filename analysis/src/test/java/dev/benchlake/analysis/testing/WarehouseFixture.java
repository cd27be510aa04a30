package dev.benchlake.analysis.testing;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.write.WarehouseWriter;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;

/**
 * Builds a warehouse for tests the way ingest does: rows that match {@link WarehouseSchema},
 * committed by {@link WarehouseWriter} (tasks first, the runs row last).
 */
public final class WarehouseFixture {
  private static final Timestamp INGESTED_AT = Timestamp.from(Instant.parse("2026-01-01T00:00:00Z"));

  /** A run and its labels ({@code os} and {@code db_major}, when present, are also dimension columns). */
  public record Run(String runId, Map<String, String> labels) {}

  /** A whole-run {@code step_metrics} row. */
  public record Metric(String runId, String step, String metric, double value, String unit) {}

  /** A task; times in µs since the epoch, either may be null. */
  public record Task(String runId, String step, Long latencyNs, boolean ok, boolean warmup, String sqlstate,
      String error, Long startUs, Long endUs) {
    public static Task ok(String runId, String step, long latencyNs) {
      return new Task(runId, step, latencyNs, true, false, null, null, null, null);
    }

    public static Task failed(String runId, String step, String sqlstate, String error) {
      return new Task(runId, step, null, false, false, sqlstate, error, null, null);
    }
  }

  private WarehouseFixture() {}

  /** Writes the runs and their tasks into a new warehouse at {@code root}, as one ingest. */
  public static Warehouse write(SparkSession spark, String root, List<Run> runs, List<Task> tasks) {
    return write(spark, root, runs, tasks, List.of());
  }

  /** Writes the runs, their tasks and their whole-run step metrics into a new warehouse, as one ingest. */
  public static Warehouse write(SparkSession spark, String root, List<Run> runs, List<Task> tasks, List<Metric> metrics) {
    Warehouse warehouse = Warehouse.at(spark, root);
    append(warehouse, "fixture", runs, tasks, metrics);
    return warehouse;
  }

  /** Adds the runs to {@code warehouse} as one more ingest, of key {@code ingestKey} (one not used there yet). */
  public static void append(Warehouse warehouse, String ingestKey, List<Run> runs, List<Task> tasks, List<Metric> metrics) {
    SparkSession spark = warehouse.spark();
    java.util.Set<WarehouseSchema.Table> empty = java.util.EnumSet.of(WarehouseSchema.Table.REJECTS);
    if (metrics.isEmpty()) {
      empty.add(WarehouseSchema.Table.STEP_METRICS);
    }
    if (tasks.isEmpty()) {
      empty.add(WarehouseSchema.Table.TASKS);
    }
    new WarehouseWriter(warehouse).append(ingestKey, new WarehouseWriter.Batch(runRows(spark, runs, tasks),
        taskRows(spark, tasks), metricRows(spark, metrics), empty(spark, WarehouseSchema.REJECTS), empty));
  }

  private static Dataset<Row> metricRows(SparkSession spark, List<Metric> metrics) {
    List<Row> rows = new ArrayList<>();
    long line = 1;
    for (Metric m : metrics) {
      Map<String, Object> cells = new java.util.HashMap<>();
      cells.put(WarehouseSchema.RUN_ID, m.runId());
      cells.put(WarehouseSchema.STEP, m.step());
      cells.put("metric", m.metric());
      cells.put("value", m.value());
      cells.put("unit", m.unit());
      cells.put(WarehouseSchema.SOURCE_LINE, line++);
      rows.add(dev.benchlake.warehouse.SchemaColumns.row(WarehouseSchema.STEP_METRICS, cells));
    }
    return spark.createDataFrame(rows, WarehouseSchema.STEP_METRICS);
  }

  private static Dataset<Row> runRows(SparkSession spark, List<Run> runs, List<Task> tasks) {
    List<Row> rows = new ArrayList<>();
    for (Run run : runs) {
      Map<String, String> labels = new TreeMap<>(run.labels());
      long count = tasks.stream().filter(t -> t.runId().equals(run.runId())).count();
      rows.add(RowFactory.create(run.runId(), "fixture", "key-" + run.runId(), List.of(), labels,
          labels.get("os"), null, labels.containsKey("db_major") ? Integer.valueOf(labels.get("db_major")) : null, labels.get("workload"), null,
          null, "complete", INGESTED_AT, INGESTED_AT, count, 0L, 0L, null,
          INGESTED_AT, "test", null));
    }
    return spark.createDataFrame(rows, WarehouseSchema.RUNS);
  }

  private static Dataset<Row> taskRows(SparkSession spark, List<Task> tasks) {
    List<Row> rows = new ArrayList<>();
    long line = 1;
    for (Task t : tasks) {
      rows.add(RowFactory.create(t.runId(), t.step(), 0, line, timestamp(t.startUs()), timestamp(t.endUs()),
          t.latencyNs(), null, null, t.warmup(), t.ok(), t.sqlstate(), t.error(), line));
      line++;
    }
    return spark.createDataFrame(rows, WarehouseSchema.TASKS);
  }

  private static Dataset<Row> empty(SparkSession spark, org.apache.spark.sql.types.StructType schema) {
    return spark.createDataFrame(List.of(), schema);
  }

  private static Timestamp timestamp(Long micros) {
    return micros == null ? null : Timestamp.from(Instant.ofEpochSecond(0, micros * 1000));
  }
}
