package dev.benchlake.analysis.engine;

import dev.benchlake.warehouse.WarehouseSchema;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The warehouse's tasks as Parquet's column batches, straight from the file scan: no row is made
 * per task, and strings stored with a dictionary stay dictionary ids. Only when the scan's plan is
 * a bare columnar file scan (anything else — a filter for deleted rows, a row-based reader — and
 * the caller falls back to rows).
 */
final class TaskBatches {
  /** The columns read, in the table's order: the scan's, so that the plan needs no projection. */
  static final List<String> COLUMNS = Arrays.stream(WarehouseSchema.TASKS.fieldNames())
      .filter(Set.of(WarehouseSchema.RUN_ID, WarehouseSchema.STEP, WarehouseSchema.WARMUP, WarehouseSchema.OK,
          WarehouseSchema.LATENCY_NS, "sqlstate", "error", WarehouseSchema.END_TS)::contains)
      .toList();

  /** Where each column is in a batch, and the steps kept (empty: all). */
  record Columns(int runId, int step, int warmup, int ok, int latencyNs, int sqlstate, int error, int endTs,
      Set<String> steps) implements Serializable {}

  private TaskBatches() {}

  /** The batches of {@code tasks} (the table, unfiltered), or empty when its plan is not a bare columnar scan. */
  static Optional<Batches> of(Dataset<Row> tasks, List<String> steps) {
    Dataset<Row> selected = tasks.select(COLUMNS.stream().map(org.apache.spark.sql.functions::col)
        .toArray(org.apache.spark.sql.Column[]::new));
    SparkPlan plan = selected.queryExecution().executedPlan();
    if (plan instanceof WholeStageCodegenExec stage) {
      plan = stage.child();
    }
    if (!(plan instanceof ColumnarToRowExec toRows)) {
      return Optional.empty();
    }
    SparkPlan child = toRows.child();
    if (child instanceof InputAdapter adapter) {
      child = adapter.child();
    }
    if (!(child instanceof FileSourceScanExec scan) || !scan.supportsColumnar()) {
      return Optional.empty();
    }
    List<String> names = Arrays.asList(scan.schema().fieldNames());
    if (names.size() != COLUMNS.size() || !names.containsAll(COLUMNS)) {
      return Optional.empty();
    }
    Columns columns = new Columns(names.indexOf(WarehouseSchema.RUN_ID), names.indexOf(WarehouseSchema.STEP),
        names.indexOf(WarehouseSchema.WARMUP), names.indexOf(WarehouseSchema.OK), names.indexOf(WarehouseSchema.LATENCY_NS),
        names.indexOf("sqlstate"), names.indexOf("error"), names.indexOf(WarehouseSchema.END_TS), Set.copyOf(steps));
    return Optional.of(new Batches(scan.executeColumnar().toJavaRDD(), columns));
  }

  record Batches(JavaRDD<ColumnarBatch> rdd, Columns columns) {}
}
