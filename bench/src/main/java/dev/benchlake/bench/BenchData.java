package dev.benchlake.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.lpad;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.randn;
import static org.apache.spark.sql.functions.timestamp_micros;
import static org.apache.spark.sql.functions.when;

import dev.benchlake.warehouse.SchemaColumns;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.write.WarehouseWriter;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A synthetic warehouse: {@code groups} runs (half labelled {@code os=linux}, half
 * {@code os=windows}) of one step, {@code tasks} tasks in all, each run's tasks together in the
 * files as an ingest writes them. Latencies are lognormal around 1 ms, in nanoseconds (nearly all
 * distinct, the hard case for exact statistics); the candidate's are 3 % longer; one task in 2000
 * fails. Timestamps are Parquet's TIMESTAMP_MICROS, as the warehouse's sessions write them.
 */
final class BenchData {
  static final String STEP = "select-update";
  private static final long ORIGIN_US = 1_700_000_000_000_000L;

  private BenchData() {}

  static String runId(int group) {
    return String.format(java.util.Locale.ROOT, "run-%02d", group);
  }

  static void write(SparkSession spark, Warehouse warehouse, long tasks, int groups, int files) {
    Column group = col("id").divide(Math.max(1, tasks / groups)).cast("int");
    Column candidate = group.geq(groups / 2);
    Column latency = exp(lit(13.8).plus(randn(7).multiply(0.35))).multiply(when(candidate, 1.03).otherwise(1.0))
        .cast("long");
    Column ok = rand(11).geq(0.0005);
    Column startUs = lit(ORIGIN_US).plus(col("id").mod(Math.max(1, tasks / groups)).multiply(50));
    Dataset<Row> generated = spark.range(0, tasks, 1, files).select(SchemaColumns.select(WarehouseSchema.TASKS,
        Map.ofEntries(
            Map.entry(WarehouseSchema.RUN_ID, concat(lit("run-"), lpad(group.cast("string"), 2, "0"))),
            Map.entry(WarehouseSchema.STEP, lit(STEP)),
            Map.entry("client_id", col("id").mod(64).cast("int")),
            Map.entry("seq", col("id")),
            Map.entry(WarehouseSchema.START_TS, timestamp_micros(startUs)),
            Map.entry(WarehouseSchema.END_TS, timestamp_micros(startUs.plus(latency.divide(1000).cast("long")))),
            Map.entry(WarehouseSchema.LATENCY_NS, when(ok, latency)),
            Map.entry("service_ns", when(ok, latency)),
            Map.entry("wait_ns", lit(0L)),
            Map.entry(WarehouseSchema.WARMUP, lit(false)),
            Map.entry(WarehouseSchema.OK, ok),
            Map.entry("sqlstate", when(ok, lit(null).cast("string")).otherwise(lit("40001"))),
            Map.entry("error", when(ok, lit(null).cast("string")).otherwise(lit("could not serialize access"))),
            Map.entry(WarehouseSchema.SOURCE_LINE, col("id").plus(1)))));
    Dataset<Row> taskRows = spark.createDataFrame(generated.javaRDD(), WarehouseSchema.TASKS);
    List<Row> runs = new ArrayList<>();
    Timestamp at = Timestamp.from(Instant.ofEpochSecond(0, ORIGIN_US * 1000));
    for (int g = 0; g < groups; g++) {
      String os = g >= groups / 2 ? "windows" : "linux";
      runs.add(SchemaColumns.row(WarehouseSchema.RUNS, Map.ofEntries(
          Map.entry(WarehouseSchema.RUN_ID, runId(g)),
          Map.entry("source_format", "bench"),
          Map.entry(WarehouseSchema.SOURCE_KEY, "bench-" + g),
          Map.entry("source_files", List.of()),
          Map.entry(WarehouseSchema.LABELS, Map.of("os", os)),
          Map.entry("os", os),
          Map.entry("workload", STEP),
          Map.entry("clients", 64),
          Map.entry("status", "complete"),
          Map.entry("started_at", at),
          Map.entry("finished_at", at),
          Map.entry("tasks_accepted", tasks / groups),
          Map.entry("step_metrics_rows", 0L),
          Map.entry("lines_rejected", 0L),
          Map.entry("ingested_at", at),
          Map.entry("benchlake_version", "bench"))));
    }
    new WarehouseWriter(warehouse).append("bench-" + tasks + "-" + groups, new WarehouseWriter.Batch(
        spark.createDataFrame(runs, WarehouseSchema.RUNS), taskRows,
        spark.createDataFrame(List.of(), WarehouseSchema.STEP_METRICS),
        spark.createDataFrame(List.of(), WarehouseSchema.REJECTS),
        EnumSet.of(WarehouseSchema.Table.STEP_METRICS, WarehouseSchema.Table.REJECTS)));
  }
}
