package dev.benchlake.analysis.engine;

import static org.apache.spark.sql.functions.broadcast;
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
import io.delta.tables.DeltaTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The engine's input read from a warehouse's {@code tasks} table. */
public final class WarehouseTasks {
  private static final int ERROR_MESSAGE_CHARS = 120;

  private WarehouseTasks() {}

  /**
   * The engine's rows ({@link EngineInput}): every task of the given runs that is not warm-up, a
   * run's index being its position in {@code runIds}; only the {@code steps} named (empty: all).
   *
   * <p>Only tasks of committed runs: the run ids come from the runs table, the commit point, and
   * the inner (broadcast) join with them keeps exactly their tasks — what
   * {@link Warehouse#committedOnly} does with a semi join — while it hands each task its run's
   * index, so that no run id string travels with each task. One hash lookup per task instead of
   * the two that {@code committedOnly} followed by the index join would cost (about a seventh of
   * a whole comparison on 20M tasks).
   */
  public static Dataset<Row> input(Warehouse warehouse, List<String> runIds, List<String> steps) {
    SparkSession spark = warehouse.spark();
    List<Row> indexRows = new ArrayList<>();
    for (int i = 0; i < runIds.size(); i++) {
      indexRows.add(RowFactory.create(runIds.get(i), i));
    }
    Dataset<Row> index = spark.createDataFrame(indexRows, new StructType()
        .add(WarehouseSchema.RUN_ID, DataTypes.StringType, false)
        .add(EngineInput.RUN_INDEX, DataTypes.IntegerType, false));
    String path = warehouse.path(Table.TASKS);
    Dataset<Row> tasks = (DeltaTable.isDeltaTable(spark, path) ? spark.read().format("delta").load(path)
        : spark.createDataFrame(List.of(), Table.TASKS.schema())).where(not(col(WarehouseSchema.WARMUP)));
    if (!steps.isEmpty()) {
      tasks = tasks.where(col(WarehouseSchema.STEP).isin(steps.toArray()));
    }
    Column message = substring(substring_index(col("error"), "\n", 1), 1, ERROR_MESSAGE_CHARS);
    return tasks.join(broadcast(index), WarehouseSchema.RUN_ID, "inner").select(
        col(WarehouseSchema.STEP).as(EngineInput.STEP),
        col(EngineInput.RUN_INDEX),
        col(WarehouseSchema.LATENCY_NS).as(EngineInput.LATENCY_NS),
        col(WarehouseSchema.OK).as(EngineInput.OK),
        when(not(col(WarehouseSchema.OK)), coalesce(col("sqlstate"), message, lit("unknown"))).as(EngineInput.ERROR_CODE),
        when(col(WarehouseSchema.OK), unix_micros(col("end_ts"))).as(EngineInput.END_US));
  }
}
