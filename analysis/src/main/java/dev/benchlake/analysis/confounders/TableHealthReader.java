package dev.benchlake.analysis.confounders;

import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;

/**
 * The selected runs' {@code table_health} rows of step_metrics (a few per run), read on the driver
 * with Delta Kernel: a small table, which a Spark read would first rebuild a Delta snapshot of in
 * Spark jobs. A warehouse older than format 3 has no such rows (its columns read as null): every
 * step is then "not recorded".
 */
public final class TableHealthReader {
  private TableHealthReader() {}

  /** By run id, then step. */
  public static Map<String, Map<String, StepHealthRecord>> read(KernelWarehouse tables, List<String> runIds) {
    Map<String, Map<String, StepHealthRecord>> out = new TreeMap<>();
    if (runIds.isEmpty()) {
      return out;
    }
    for (Row r : tables.rowsOf(Table.STEP_METRICS, new HashSet<>(runIds))) {
      if (!WarehouseSchema.TABLE_HEALTH_METRIC.equals(r.getAs(WarehouseSchema.METRIC))) {
        continue;
      }
      Row before = r.getAs(WarehouseSchema.HEALTH_BEFORE);
      StepHealthRecord record = new StepHealthRecord(r.getAs(WarehouseSchema.RUN_ID), r.getAs(WarehouseSchema.STEP),
          before == null ? null : before.getAs("n_live_tup"), before == null ? null : before.getAs("n_dead_tup"),
          r.getAs(WarehouseSchema.TABLES_AUTOVACUUMED), r.getAs(WarehouseSchema.TABLES_AUTOANALYZED),
          r.getAs(WarehouseSchema.BETWEEN_STEPS));
      out.computeIfAbsent(record.runId(), k -> new TreeMap<>()).putIfAbsent(record.step(), record);
    }
    return out;
  }
}
