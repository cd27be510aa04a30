package dev.benchlake.analysis.confounders;

import static org.apache.spark.sql.functions.col;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The only Spark in the confounder check: the selected runs' {@code table_health} rows of
 * step_metrics (a few per run), collected to the driver. A warehouse older than format 3 has no
 * such rows (its columns read as null): every step is then "not recorded".
 */
public final class TableHealthReader {
  private TableHealthReader() {}

  /** By run id, then step. */
  public static Map<String, Map<String, StepHealthRecord>> read(Warehouse warehouse, List<String> runIds) {
    Map<String, Map<String, StepHealthRecord>> out = new TreeMap<>();
    if (runIds.isEmpty()) {
      return out;
    }
    Dataset<Row> selected = warehouse.spark().createDataFrame(runIds.stream().map(id -> RowFactory.create(id)).toList(),
        new StructType().add(WarehouseSchema.RUN_ID, DataTypes.StringType));
    List<Row> rows = warehouse.committedOnly(Table.STEP_METRICS, selected)
        .where(col("metric").equalTo(WarehouseSchema.TABLE_HEALTH_METRIC))
        .select(col(WarehouseSchema.RUN_ID), col(WarehouseSchema.STEP),
            col(WarehouseSchema.HEALTH_BEFORE).getField("n_live_tup"),
            col(WarehouseSchema.HEALTH_BEFORE).getField("n_dead_tup"),
            col(WarehouseSchema.TABLES_AUTOVACUUMED), col(WarehouseSchema.TABLES_AUTOANALYZED),
            col(WarehouseSchema.BETWEEN_STEPS))
        .collectAsList();
    for (Row r : rows) {
      StepHealthRecord record = new StepHealthRecord(r.getString(0), r.getString(1), r.isNullAt(2) ? null : r.getLong(2),
          r.isNullAt(3) ? null : r.getLong(3), r.isNullAt(4) ? null : r.getInt(4), r.isNullAt(5) ? null : r.getInt(5),
          r.getString(6));
      out.computeIfAbsent(record.runId(), k -> new TreeMap<>()).putIfAbsent(record.step(), record);
    }
    return out;
  }
}
