package dev.benchlake.analysis.engine;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.substring_index;
import static org.apache.spark.sql.functions.unix_micros;
import static org.apache.spark.sql.functions.when;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.spark.ListedParquet;
import io.delta.tables.DeltaTable;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** The engine's input read from a warehouse's {@code tasks} table. */
public final class WarehouseTasks {
  static final int ERROR_MESSAGE_CHARS = 120;

  private WarehouseTasks() {}

  /**
   * The engine's rows ({@link EngineInput}): every task that is not warm-up; only the
   * {@code steps} named (empty: all).
   *
   * <p>Only tasks of committed runs count: {@link SortedLatencies#sort} keeps the rows of the run
   * ids it is given, which come from the runs table, the commit point — what
   * {@link Warehouse#committedOnly} does with a semi join. A join per task, even broadcast, cost
   * more than half of the sort on 20M tasks (hashing and copying the run id of every row), and
   * the sort needs each run's index anyway; so the run ids travel as they are read, and the sort
   * looks one up only where the run changes.
   */
  public static Dataset<Row> input(Warehouse warehouse, List<String> steps) {
    return input(table(warehouse, KernelWarehouse.of(warehouse)), steps);
  }

  private static Dataset<Row> input(Dataset<Row> table, List<String> steps) {
    Dataset<Row> tasks = table.where(not(col(WarehouseSchema.WARMUP)));
    if (!steps.isEmpty()) {
      tasks = tasks.where(col(WarehouseSchema.STEP).isin(steps.toArray()));
    }
    Column message = substring(substring_index(col("error"), "\n", 1), 1, ERROR_MESSAGE_CHARS);
    return tasks.select(
        col(WarehouseSchema.STEP).as(EngineInput.STEP),
        col(WarehouseSchema.RUN_ID).as(EngineInput.RUN_ID),
        col(WarehouseSchema.LATENCY_NS).as(EngineInput.LATENCY_NS),
        col(WarehouseSchema.OK).as(EngineInput.OK),
        when(not(col(WarehouseSchema.OK)), coalesce(col("sqlstate"), message, lit("unknown"))).as(EngineInput.ERROR_CODE),
        when(col(WarehouseSchema.OK), unix_micros(col("end_ts"))).as(EngineInput.END_US));
  }

  /**
   * Sorts the latencies of {@code runIds}' tasks ({@link SortedLatencies#sort}, of
   * {@link #input}): from Parquet's column batches when the table's scan is a bare columnar one,
   * which spares making a row of each task (about half of a sort's time on 20M tasks), else from
   * {@link #input}'s rows. Both give the same result.
   */
  public static SortedLatencies sort(Warehouse warehouse, List<String> steps, RunGrouping runs, int partitions,
      long thresholdNs) {
    return sort(warehouse, KernelWarehouse.of(warehouse), steps, runs, partitions, thresholdNs);
  }

  /** As {@link #sort(Warehouse, List, RunGrouping, int, long)}, the task files listed by the command's {@code tables}. */
  public static SortedLatencies sort(Warehouse warehouse, KernelWarehouse tables, List<String> steps, RunGrouping runs,
      int partitions, long thresholdNs) {
    Dataset<Row> table = table(warehouse, tables);
    Optional<TaskBatches.Batches> batches = TaskBatches.of(table, steps);
    return batches.isPresent()
        ? SortedLatencies.sort(warehouse.spark(), batches.get(), runs, partitions, thresholdNs)
        : SortedLatencies.sort(input(table, steps), runs, partitions, thresholdNs);
  }

  /** The committed tasks: their Parquet files as the Delta log lists them ({@link ListedParquet}), else Delta's reader. */
  private static Dataset<Row> table(Warehouse warehouse, KernelWarehouse tables) {
    return ListedParquet.read(warehouse.spark(), tables, Table.TASKS).orElseGet(() -> {
      SparkSession spark = warehouse.spark();
      String path = warehouse.path(Table.TASKS);
      return DeltaTable.isDeltaTable(spark, path) ? spark.read().format("delta").load(path)
          : spark.createDataFrame(List.of(), Table.TASKS.schema());
    });
  }
}
