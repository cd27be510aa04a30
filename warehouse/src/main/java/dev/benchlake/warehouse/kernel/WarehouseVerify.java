package dev.benchlake.warehouse.kernel;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.DamagedWarehouseException;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.check.DataFilesCheck;
import dev.benchlake.warehouse.check.DeltaLogCheck;
import dev.benchlake.warehouse.check.LostTableCheck;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse.TableCheck;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code benchlake verify} as an API: everything wrong with a warehouse, each problem naming its
 * file, read with Delta Kernel and the file system only (no Spark), writing nothing. The format
 * file parses; every file of every table's log reads whole and parses ({@link DeltaLogCheck}),
 * Delta can load each table's latest version, every data file that version names is there with
 * its recorded size ({@link DataFilesCheck}), and Delta's checksum of that version agrees with
 * them; a table Delta finds no commit of is not one the warehouse shows it had ({@link LostTableCheck}).
 * The data files' bytes are not read: sizes only, so that it takes about as long as {@code runs};
 * {@code deep} reads them all ({@link DataFilesCheck#bytesProblem}).
 */
public final class WarehouseVerify {
  private WarehouseVerify() {}

  /**
   * What was found.
   *
   * @param format the warehouse's format, empty when its format file is damaged
   * @param tables each table that has a log or a problem, in {@link Table} order
   * @param problems every problem, the format file's first
   */
  public record Report(String root, OptionalInt format, List<TableCheck> tables, List<WarehouseProblem> problems) {
    public boolean sound() {
      return problems.isEmpty();
    }
  }

  /**
   * @throws BadInputException when there is no warehouse at {@code root}, it is a file, or it is
   *     of a format newer than this build (which cannot judge it)
   */
  public static Report run(String root, Configuration conf) throws IOException {
    return run(root, conf, false);
  }

  /** @param deep whether to read every byte of every data file too ({@code verify --deep}) */
  public static Report run(String root, Configuration conf, boolean deep) throws IOException {
    List<WarehouseProblem> problems = new ArrayList<>();
    OptionalInt format;
    try {
      WarehouseFormat.requireReadable(root, conf);
      format = WarehouseFormat.read(root, conf);
    } catch (DamagedWarehouseException e) {
      problems.add(e.problem());
      format = OptionalInt.empty();
    }
    KernelWarehouse warehouse = KernelWarehouse.ignoringFormat(root, conf);
    List<TableCheck> tables = new ArrayList<>();
    for (Table table : Table.values()) {
      TableCheck check = warehouse.check(table, deep);
      if (check.version() >= 0 || !check.problems().isEmpty()) {
        tables.add(check);
        problems.addAll(check.problems());
      }
    }
    if (format.isEmpty() && problems.isEmpty()) {
      throw new BadInputException("no warehouse at " + root + " (no format file and no table)");
    }
    return new Report(root, format, tables, problems);
  }
}
