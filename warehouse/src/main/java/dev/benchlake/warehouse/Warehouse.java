package dev.benchlake.warehouse;

import static org.apache.spark.sql.functions.broadcast;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import io.delta.tables.DeltaTable;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Read access to a warehouse folder ({@code --warehouse DIR}): one Delta table per {@link Table}.
 *
 * <p>Readers see only committed runs: rows of {@code tasks}, {@code step_metrics} and
 * {@code rejects} whose run has no row in {@code runs} (an ingest that crashed before its commit
 * point) are filtered out here, in one place.
 */
public final class Warehouse {
  public static final String DEFAULT_DIR = "warehouse";

  private final SparkSession spark;
  private final String root;

  private Warehouse(SparkSession spark, String root) {
    this.spark = spark;
    this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
  }

  public static Warehouse at(SparkSession spark, String root) {
    return new Warehouse(spark, root);
  }

  public SparkSession spark() {
    return spark;
  }

  public String root() {
    return root;
  }

  public String path(Table table) {
    return root + "/" + table.dirName();
  }

  /** Whether the warehouse has committed at least its runs table. */
  public boolean exists() {
    return DeltaTable.isDeltaTable(spark, path(Table.RUNS));
  }

  /**
   * Fails with a clear message when there is no warehouse at {@link #root()}.
   *
   * @throws BadInputException naming the folder
   */
  public Warehouse requireExisting() {
    if (!exists()) {
      throw new BadInputException("no warehouse at " + root
          + " (no runs have been ingested there yet; run 'benchlake ingest --warehouse " + root + " PATH…' first)");
    }
    return this;
  }

  /** Committed runs (the commit point of every ingest). */
  public Dataset<Row> runs() {
    requireExisting();
    return table(Table.RUNS);
  }

  /** Tasks of committed runs. */
  public Dataset<Row> tasks() {
    return committedOnly(Table.TASKS, runs());
  }

  /** Step metrics of committed runs. */
  public Dataset<Row> stepMetrics() {
    return committedOnly(Table.STEP_METRICS, runs());
  }

  /** Rejected lines of committed runs. */
  public Dataset<Row> rejects() {
    return committedOnly(Table.REJECTS, runs());
  }

  /** Rows of {@code table} that belong to the given (already selected) runs. */
  public Dataset<Row> committedOnly(Table table, Dataset<Row> selectedRuns) {
    Dataset<Row> rows = tableOrEmpty(table);
    Dataset<Row> ids = broadcast(selectedRuns.select(WarehouseSchema.RUN_ID).distinct());
    return rows.join(ids, rows.col(WarehouseSchema.RUN_ID).equalTo(ids.col(WarehouseSchema.RUN_ID)), "left_semi");
  }

  /** The Delta version of the runs table: with the path it pins exactly what a report read. */
  public long version() {
    requireExisting();
    List<Row> last = DeltaTable.forPath(spark, path(Table.RUNS)).history(1).select("version").collectAsList();
    return last.isEmpty() ? -1 : last.get(0).getLong(0);
  }

  private Dataset<Row> table(Table table) {
    return spark.read().format("delta").load(path(table));
  }

  private Dataset<Row> tableOrEmpty(Table table) {
    if (DeltaTable.isDeltaTable(spark, path(table))) {
      return table(table);
    }
    return spark.createDataFrame(List.of(), table.schema());
  }
}
