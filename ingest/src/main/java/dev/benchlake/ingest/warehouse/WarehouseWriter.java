package dev.benchlake.ingest.warehouse;

import static org.apache.spark.sql.functions.col;

import dev.benchlake.ingest.warehouse.WarehouseSchema.Table;
import io.delta.tables.DeltaTable;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Commits one ingest into a warehouse, atomically and idempotently.
 *
 * <p>Delta commits are atomic per table, not across tables, so an ingest appends the data tables
 * first ({@code rejects}, {@code step_metrics}, {@code tasks}) and the {@code runs} row last: that
 * row is the commit point, and {@link Warehouse} shows no data of a run without one. Every append
 * carries Delta's {@code txnAppId} = the ingest's key and a {@code txnVersion}, and Delta skips an
 * append whose (app id, version) it has already committed; so re-running an ingest that was killed
 * half-way adds only what is missing, exactly once.
 *
 * <p>Concurrent ingests of different inputs are blind appends, which Delta lets through; two
 * ingests of the same input race on the same transaction id and the loser fails cleanly.
 */
public final class WarehouseWriter {
  /** The version of a first ingest of a key; replacements use later versions. */
  static final long FIRST_VERSION = 1L;

  private final Warehouse warehouse;

  public WarehouseWriter(Warehouse warehouse) {
    this.warehouse = warehouse;
  }

  /** The rows of one ingest, each matching its {@link WarehouseSchema} table. */
  public record Batch(Dataset<Row> runs, Dataset<Row> tasks, Dataset<Row> stepMetrics, Dataset<Row> rejects) {
    Dataset<Row> rows(Table table) {
      return switch (table) {
        case RUNS -> runs;
        case TASKS -> tasks;
        case STEP_METRICS -> stepMetrics;
        case REJECTS -> rejects;
      };
    }
  }

  /**
   * Appends {@code batch} under {@code ingestKey} (a content hash of the inputs).
   *
   * @param replaceVersion 0 for a normal ingest; for {@code --replace} a number larger than any
   *     earlier one for this key (e.g. the current time in ms), after {@link #deleteRuns}
   */
  public void append(String ingestKey, Batch batch, long replaceVersion) {
    long txnVersion = replaceVersion == 0 ? FIRST_VERSION : replaceVersion;
    for (Table table : Table.values()) {
      Dataset<Row> rows = batch.rows(table);
      if (!rows.schema().equals(table.schema())) {
        throw new IllegalArgumentException("rows for " + table.dirName() + " do not match its schema:\n"
            + rows.schema().treeString() + "expected:\n" + table.schema().treeString());
      }
      rows.write()
          .format("delta")
          .mode(SaveMode.Append)
          .option("txnAppId", "benchlake-ingest:" + ingestKey)
          .option("txnVersion", txnVersion)
          .option("userMetadata", "benchlake ingest " + ingestKey)
          .save(warehouse.path(table));
    }
  }

  /**
   * Deletes every row of these runs from every table, committed or orphaned (runs first, so that
   * readers never see a run whose tasks are half gone).
   */
  public void deleteRuns(List<String> runIds) {
    if (runIds.isEmpty()) {
      return;
    }
    SparkSession spark = warehouse.spark();
    for (Table table : List.of(Table.RUNS, Table.TASKS, Table.STEP_METRICS, Table.REJECTS)) {
      String path = warehouse.path(table);
      if (DeltaTable.isDeltaTable(spark, path)) {
        DeltaTable.forPath(spark, path).delete(col(WarehouseSchema.RUN_ID).isin(runIds.toArray()));
      }
    }
  }
}
