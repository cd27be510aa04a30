package dev.benchlake.warehouse.check;

import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * A table that Delta finds no commit of, although the warehouse shows it had some: its log (or all
 * of it) was deleted or moved away. Delta reads a table without a log as no table, and the next
 * write would start it afresh at version 0 beside the old data files, which no log would name
 * again: every run's rows in that table lost, and {@code runs} still listing the runs (or, for
 * {@code runs} itself, no run at all).
 *
 * <p>Which tables a warehouse must have is not a matter of its format: every format's first ingest
 * creates {@code runs} and only the data tables it has rows for ({@code tasks} with a task,
 * {@code step_metrics} with a metric, {@code rejects} with a rejected line, {@code ingest_files}
 * from format 2 on, which an upgraded format 1 warehouse lacks until its next ingest), and a first
 * ingest killed before its commit point leaves a format file and no {@code runs}. So a table is
 * required by what shows it was committed:
 * <ul>
 *   <li><b>its data files</b>: Delta makes a table's log folder before it writes the table's first
 *       data file (and benchlake removes a log folder only with its table's), so data files in a
 *       table folder without {@code _delta_log} were committed to a log that is gone. Data files
 *       beside a log folder with no commit are a killed ingest's uncommitted (staged) files, which
 *       no log ever named: never damage, and the table's first commit leaves them unnamed (Delta's
 *       {@code VACUUM} removes them);
 *   <li><b>the committed runs</b>: each counts its rows of {@code tasks}, {@code step_metrics} and
 *       {@code rejects} ({@code tasks_accepted}, {@code step_metrics_rows}, {@code lines_rejected}),
 *       and appends them before its {@code runs} row, so a table they count rows in had a commit.
 * </ul>
 * Data files that no log names in a table that has a log are not judged: a killed ingest's staged
 * files are exactly that, and nothing tells them from the files of a lost commit but the log's
 * other files ({@link DeltaLogCheck}).
 */
public final class LostTableCheck {
  private LostTableCheck() {}

  /**
   * What is wrong with a table Delta finds no commit of.
   *
   * @param table the table's folder
   * @param rowsCounted how many rows the committed runs count in this table ({@link #countedBy});
   *     empty when they count none of it (runs, ingest_files) or cannot be read
   */
  public static List<WarehouseProblem> problems(Storage storage, Table which, Path table, OptionalLong rowsCounted)
      throws IOException {
    Path log = DeltaLogCheck.logOf(table);
    boolean hasFolder = storage.isDirectory(table);
    boolean hasLog = hasFolder && storage.isDirectory(log);
    long files = 0;
    long bytes = 0;
    if (hasFolder && !hasLog) {
      for (FileStatus entry : storage.list(table)) {
        if (entry.isFile() && isDataFile(entry.getPath().getName())) {
          files++;
          bytes += entry.getLen();
        }
      }
    }
    long rows = rowsCounted.orElse(0);
    if (files == 0 && rows == 0) {
      return List.of();
    }
    List<String> evidence = new ArrayList<>();
    if (files > 0) {
      evidence.add(table.getName() + " holds " + files + " data file" + (files == 1 ? "" : "s") + " of " + bytes
          + " bytes");
    }
    if (rows > 0) {
      evidence.add("the committed runs count " + rows + " rows in it (runs." + countedBy(which).orElseThrow() + ")");
    }
    String because = String.join(" and ", evidence);
    if (!hasFolder) {
      return List.of(new WarehouseProblem(table.toString(), "missing, yet " + because
          + ": the table was deleted or moved away, and every reader would take its rows for none"));
    }
    return List.of(new WarehouseProblem(log.toString(), (hasLog ? "holds no commit" : "missing") + ", yet " + because
        + ": the table's Delta log was deleted or moved away (without it Delta reads no row of the table, and an ingest "
        + "would start the table afresh, orphaning them all)"));
  }

  /** A data file of a table folder as Spark and Delta name them (not a checksum file, not a folder's marker). */
  static boolean isDataFile(String name) {
    return name.endsWith(".parquet") && !name.startsWith(".") && !name.startsWith("_");
  }

  /** The column of {@code runs} that counts each run's rows of {@code table}, where one does. */
  public static Optional<String> countedBy(Table table) {
    return Optional.ofNullable(switch (table) {
      case TASKS -> WarehouseSchema.TASKS_ACCEPTED;
      case STEP_METRICS -> WarehouseSchema.STEP_METRICS_ROWS;
      case REJECTS -> WarehouseSchema.LINES_REJECTED;
      case RUNS, INGEST_FILES -> null;
    });
  }
}
