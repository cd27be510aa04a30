package dev.benchlake.warehouse.write;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import io.delta.tables.DeltaTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.StructField;

/**
 * {@code benchlake upgrade}: brings a warehouse of an earlier format to {@link WarehouseFormat#CURRENT}.
 *
 * <p>Every change so far is additive: new nullable columns, new tables and table properties. So an upgrade adds to
 * each existing table the columns of {@link WarehouseSchema} it lacks, at the end, with one
 * {@code ALTER TABLE … ADD COLUMNS} per table: one atomic Delta commit that changes only the table's
 * metadata (no data file is rewritten; old rows read the new columns as null, "not recorded").
 * Each table gets the {@link Table#properties()} it lacks the same way (a metadata-only commit:
 * {@link TableProperties}).
 * New tables are created by the first ingest that has rows for them. The format file is written
 * last, so a killed upgrade leaves a warehouse that still says its old format, is readable by this
 * build, and is finished by running the upgrade again; a table that already has a column is left
 * alone, which makes the upgrade idempotent.
 */
public final class WarehouseUpgrade {
  private WarehouseUpgrade() {}

  /** What one upgrade did. */
  public record Result(int fromVersion, int toVersion, List<String> changes) {
    public boolean changedAnything() {
      return !changes.isEmpty();
    }
  }

  /**
   * Upgrades the warehouse; {@code progress} is told each change before it is made.
   *
   * @throws BadInputException when there is no warehouse, or it is newer than this build
   */
  public static Result run(Warehouse warehouse, Consumer<String> progress) {
    warehouse.requireExisting();
    int from = WarehouseFormat.read(warehouse).orElseThrow();
    List<String> changes = new ArrayList<>();
    // Ingests hold their locks only per run; this one keeps two upgrades from racing each other.
    try (RunLocks lock = RunLocks.acquire(warehouse, List.of("upgrade"))) {
      for (Table table : Table.values()) {
        String path = warehouse.path(table);
        if (!DeltaTable.isDeltaTable(warehouse.spark(), path)) {
          continue;
        }
        Set<String> present = new HashSet<>(Arrays.asList(
            warehouse.spark().read().format("delta").load(path).schema().fieldNames()));
        List<StructField> missing = Arrays.stream(table.schema().fields())
            .filter(f -> !present.contains(f.name())).toList();
        if (!missing.isEmpty()) {
          addColumns(warehouse, table, path, missing, progress, changes);
        }
        // After the columns: a statistics column must exist when the property names it.
        setProperties(warehouse, table, path, progress, changes);
      }
      if (from < WarehouseFormat.CURRENT) {
        String change = "format " + from + " -> " + WarehouseFormat.CURRENT;
        progress.accept(change);
        WarehouseFormat.write(warehouse, WarehouseFormat.CURRENT);
        changes.add(change);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Result(from, WarehouseFormat.CURRENT, changes);
  }

  /** The columns of this build's schema the table lacks, with one metadata-only {@code ALTER TABLE … ADD COLUMNS}. */
  private static void addColumns(Warehouse warehouse, Table table, String path, List<StructField> missing,
      Consumer<String> progress, List<String> changes) {
    String change = table.dirName() + ": added column" + (missing.size() == 1 ? " " : "s ")
        + missing.stream().map(f -> f.name() + " " + f.dataType().simpleString()).collect(Collectors.joining(", "))
        + " (null in the existing rows: not recorded)";
    progress.accept(change);
    String columns = missing.stream().map(f -> "`" + f.name() + "` " + f.dataType().sql())
        .collect(Collectors.joining(", "));
    warehouse.spark().sql("ALTER TABLE delta.`" + TableProperties.qualified(warehouse, path).replace("`", "``")
        + "` ADD COLUMNS (" + columns + ")");
    changes.add(change);
  }

  /**
   * The table properties this build creates the table with ({@link TableProperties}): format 4's
   * statistics of tasks on the columns reads filter by, rejects' and runs' kept off their raw text.
   */
  private static void setProperties(Warehouse warehouse, Table table, String path, Consumer<String> progress,
      List<String> changes) {
    java.util.SortedMap<String, String> missing = TableProperties.missing(table,
        org.apache.spark.sql.delta.DeltaLog.forTable(warehouse.spark(), path).startTransaction());
    if (missing.isEmpty()) {
      return;
    }
    String change = TableProperties.describe(table, missing);
    progress.accept(change);
    TableProperties.set(warehouse, table, path, missing);
    changes.add(change);
  }
}
