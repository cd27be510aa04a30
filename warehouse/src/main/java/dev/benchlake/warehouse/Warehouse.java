package dev.benchlake.warehouse;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.lit;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.fs.Storage;
import io.delta.tables.DeltaTable;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

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
  /** The root as every Hadoop client resolves it alike: a local folder as a file: URI (not fs.defaultFS). */
  private final String location;

  private Warehouse(SparkSession spark, String root) {
    this.spark = spark;
    this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    this.location = Storage.qualified(Storage.location(this.root));
  }

  /**
   * The warehouse at {@code root}, after checking its format first.
   *
   * @throws BadInputException when it was written by a newer benchlake (see {@link WarehouseFormat})
   */
  public static Warehouse at(SparkSession spark, String root) {
    Warehouse warehouse = new Warehouse(spark, root);
    WarehouseFormat.requireReadable(warehouse);
    return warehouse;
  }

  public SparkSession spark() {
    return spark;
  }

  /**
   * The root as given ({@code --warehouse}): a local folder or a URI ({@code hdfs://}, {@code s3a://},
   * {@code file:}); see {@link Storage#location}.
   */
  public String root() {
    return root;
  }

  /** The root as a qualified URI (a local folder as {@code file:/…}), for Spark, Delta and Hadoop. */
  public String location() {
    return location;
  }

  /** The warehouse's files, on the session's Hadoop configuration. */
  public Storage storage() {
    return Storage.on(spark.sparkContext().hadoopConfiguration());
  }

  public String path(Table table) {
    return location + "/" + table.dirName();
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

  /** Per-file accounting of committed runs (format 2 on; none for runs ingested before). */
  public Dataset<Row> ingestFiles() {
    return committedOnly(Table.INGEST_FILES, runs());
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

  /**
   * A table in this build's schema: a table of an older format lacks the columns added since,
   * which read as typed nulls ("not recorded"), never as a default that would look measured.
   */
  private Dataset<Row> table(Table table) {
    return withCurrentColumns(spark.read().format("delta").load(path(table)), table.schema());
  }

  static Dataset<Row> withCurrentColumns(Dataset<Row> rows, StructType schema) {
    java.util.Set<String> present = new java.util.HashSet<>(java.util.Arrays.asList(rows.columns()));
    Dataset<Row> out = rows;
    for (StructField field : schema.fields()) {
      if (!present.contains(field.name())) {
        out = out.withColumn(field.name(), lit(null).cast(field.dataType()));
      }
    }
    return out;
  }

  private Dataset<Row> tableOrEmpty(Table table) {
    if (DeltaTable.isDeltaTable(spark, path(table))) {
      return table(table);
    }
    return spark.createDataFrame(List.of(), table.schema());
  }
}
