package dev.benchlake.warehouse;

import dev.benchlake.core.cli.BadInputException;
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
 * Format 4 sets the tasks table's {@link Table#properties()} the same way (a metadata-only commit).
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
        setProperties(warehouse, table, path, progress, changes);
        List<StructField> missing = Arrays.stream(table.schema().fields())
            .filter(f -> !present.contains(f.name())).toList();
        if (missing.isEmpty()) {
          continue;
        }
        String change = table.dirName() + ": added column" + (missing.size() == 1 ? " " : "s ")
            + missing.stream().map(f -> f.name() + " " + f.dataType().simpleString()).collect(Collectors.joining(", "))
            + " (null in the existing rows: not recorded)";
        progress.accept(change);
        String columns = missing.stream().map(f -> "`" + f.name() + "` " + f.dataType().sql())
            .collect(Collectors.joining(", "));
        warehouse.spark().sql("ALTER TABLE delta.`" + qualified(warehouse, path).replace("`", "``")
            + "` ADD COLUMNS (" + columns + ")");
        changes.add(change);
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

  /**
   * Format 4: the table properties this build creates the table with (tasks' per-file statistics
   * on the columns reads filter by), set with one {@code ALTER TABLE … SET TBLPROPERTIES}: a
   * metadata-only commit; files written before keep the statistics they have.
   */
  private static void setProperties(Warehouse warehouse, Table table, String path, Consumer<String> progress,
      List<String> changes) throws IOException {
    if (table.properties().isEmpty()) {
      return;
    }
    java.util.Map<String, String> current = DeltaTable.forPath(warehouse.spark(), path).detail()
        .select("properties").first().getJavaMap(0);
    java.util.Map<String, String> missing = new java.util.TreeMap<>();
    table.properties().forEach((k, v) -> {
      if (!v.equals(current.get(k))) {
        missing.put(k, v);
      }
    });
    if (missing.isEmpty()) {
      return;
    }
    String change = table.dirName() + ": set " + missing.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ")) + " (per-file statistics of new files on these columns only)";
    progress.accept(change);
    String properties = missing.entrySet().stream()
        .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'").collect(Collectors.joining(", "));
    warehouse.spark().sql("ALTER TABLE delta.`" + qualified(warehouse, path).replace("`", "``")
        + "` SET TBLPROPERTIES (" + properties + ")");
    changes.add(change);
  }

  /** SQL's delta.`path` wants an absolute path (a relative one is taken for a table name). */
  private static String qualified(Warehouse warehouse, String path) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
    return p.getFileSystem(warehouse.spark().sparkContext().hadoopConfiguration()).makeQualified(p).toString();
  }
}
