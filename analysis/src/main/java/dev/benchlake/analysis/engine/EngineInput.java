package dev.benchlake.analysis.engine;

import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import dev.benchlake.warehouse.WarehouseSchema;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * The rows the engine reads: one per task (warm-up tasks already left out), with its run's id;
 * the engine turns ids into dense indexes itself ({@link SortedLatencies#sort}), with one lookup
 * per change of run rather than a join per row, and skips the rows of runs it was not given.
 * {@code latency_ns} counts only when {@code ok};
 * {@code error_code} (SQLSTATE, else the message) only when not; {@code end_us} (µs since the
 * epoch, null when unknown) of successful tasks gives each run's throughput. The columns it shares
 * with the warehouse's tasks take their names and types from {@link WarehouseSchema#TASKS}.
 */
public final class EngineInput {
  public static final String STEP = WarehouseSchema.STEP;
  public static final String RUN_ID = WarehouseSchema.RUN_ID;
  public static final String LATENCY_NS = WarehouseSchema.LATENCY_NS;
  public static final String OK = WarehouseSchema.OK;
  public static final String ERROR_CODE = "error_code";
  public static final String END_US = "end_us";

  public static final StructType SCHEMA = new StructType()
      .add(WarehouseSchema.field(WarehouseSchema.TASKS, STEP))
      .add(WarehouseSchema.field(WarehouseSchema.TASKS, RUN_ID))
      .add(WarehouseSchema.field(WarehouseSchema.TASKS, LATENCY_NS))
      .add(WarehouseSchema.field(WarehouseSchema.TASKS, OK))
      .add(ERROR_CODE, StringType, true)
      .add(END_US, LongType, true);

  static final int STEP_ORDINAL = 0;
  static final int RUN_ORDINAL = 1;
  static final int LATENCY_ORDINAL = 2;
  static final int OK_ORDINAL = 3;
  static final int CODE_ORDINAL = 4;
  static final int END_ORDINAL = 5;

  private EngineInput() {}

  /** {@code rows} with exactly the engine's columns, in order (types must already match). */
  static Dataset<Row> conform(Dataset<Row> rows) {
    Dataset<Row> selected = rows.select(STEP, RUN_ID, LATENCY_NS, OK, ERROR_CODE, END_US);
    for (int i = 0; i < SCHEMA.fields().length; i++) {
      if (!selected.schema().fields()[i].dataType().equals(SCHEMA.fields()[i].dataType())) {
        throw new IllegalArgumentException("engine input column " + SCHEMA.fields()[i].name() + " is "
            + selected.schema().fields()[i].dataType() + ", expected " + SCHEMA.fields()[i].dataType());
      }
    }
    return selected;
  }
}
