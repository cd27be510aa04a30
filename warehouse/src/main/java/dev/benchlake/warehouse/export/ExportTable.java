package dev.benchlake.warehouse.export;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * A warehouse table that {@code benchlake export} writes, with the order its rows come out in:
 * a total order over the table's natural key, so that the same warehouse always exports the same
 * file.
 */
public enum ExportTable {
  RUNS(Table.RUNS, "started_at", WarehouseSchema.RUN_ID),
  TASKS(Table.TASKS, WarehouseSchema.RUN_ID, WarehouseSchema.STEP, "client_id", "seq", "source_line"),
  STEP_METRICS(Table.STEP_METRICS, WarehouseSchema.RUN_ID, WarehouseSchema.STEP, "metric", "interval_start_s",
      "bucket", "source_line"),
  REJECTS(Table.REJECTS, WarehouseSchema.RUN_ID, "source_file", "line_no"),
  INGEST_FILES(Table.INGEST_FILES, WarehouseSchema.RUN_ID, "path");

  /** The names, for help texts and messages. */
  public static final String NAMES = "runs, tasks, step_metrics, rejects, ingest_files";

  private final Table table;
  private final List<String> order;

  ExportTable(Table table, String... order) {
    this.table = table;
    this.order = List.of(order);
  }

  public Table table() {
    return table;
  }

  public StructType schema() {
    return table.schema();
  }

  /** The sort columns, ascending, nulls first (Spark's default). */
  public List<String> order() {
    return order;
  }

  /**
   * Bytes of Parquet up to which the {@code tasks} table, too, is read with Delta Kernel: about
   * 140,000 tasks at the ~30 bytes a task takes in the warehouse, which held on the driver to be
   * sorted take some tens of MB. A small warehouse's tasks (a tour, a notebook's, a test's) export
   * in a second instead of a Spark session's ten; beyond it Spark reads, sorts and renders in
   * parallel, a partition at a time.
   */
  static final long KERNEL_TASKS_BYTES = 4L << 20;

  /**
   * Whether {@code export} reads this table with Delta Kernel in the launcher's JVM rather than
   * with Spark: every table but {@code tasks} always (they hold a few rows per run, per interval
   * of a summary or per bad line, and a Spark session would cost seconds for milliseconds of
   * reading), and {@code tasks} while its committed files add up to at most
   * {@link #KERNEL_TASKS_BYTES} ({@code tasksBytes}: empty when their size is not known).
   */
  public boolean smallEnoughForKernel(java.util.OptionalLong tasksBytes) {
    return this != TASKS || (tasksBytes.isPresent() && tasksBytes.getAsLong() <= KERNEL_TASKS_BYTES);
  }

  /** {@link #order()} as a comparator of rows in memory (Spark's order: see {@link RowOrder}). */
  public java.util.Comparator<org.apache.spark.sql.Row> rowOrder() {
    return RowOrder.by(order);
  }

  /** Whether rows have a {@code step} that {@code --step} can select. */
  public boolean hasSteps() {
    return Arrays.asList(schema().fieldNames()).contains(WarehouseSchema.STEP);
  }

  /**
   * The table of this name ({@code runs}, {@code tasks}, {@code step_metrics}, {@code rejects}).
   *
   * @throws BadInputException naming the tables there are
   */
  public static ExportTable named(String name) {
    for (ExportTable table : values()) {
      if (table.toString().equals(name)) {
        return table;
      }
    }
    throw new BadInputException("--table: no table '" + name + "'; the tables: " + NAMES);
  }

  /** The table's name in the warehouse and on the command line. */
  @Override
  public String toString() {
    return table.dirName();
  }
}
