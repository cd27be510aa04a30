package dev.benchlake.warehouse.cli;

import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.TextTable;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.kernel.WarehouseVerify;
import dev.benchlake.warehouse.kernel.KernelWarehouse.TableCheck;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake verify}: is every file of the warehouse what its logs say? (see {@link WarehouseVerify}) */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Check that a warehouse is whole (every file its Delta logs name, there with its size; every log file whole) "
          + "and write nothing: one line per damaged file.",
      "What it checks: the format file parses; every file of every table's Delta log reads whole "
          + "(Hadoop's checksum files agree where there are some) and parses; Delta can load each table's latest "
          + "version; every data file that version names is there with the size its log recorded, and Delta's checksum "
          + "of the version agrees with them; a table without a Delta log is not one the warehouse shows it had (its data "
          + "files, or runs that count rows in it). Data files' bytes are not read: sizes only, about as quick as 'runs'.",
      "--deep also reads every data file the logs name, whole: Parquet's footer and every page, Hadoop's checksum files "
          + "beside them where there are some (as long as reading the whole warehouse takes).",
      "It writes nothing (it also works on a read-only copy) and starts no Spark session.",
      "stdout: one line per problem, FILE: what is wrong; or, when the warehouse is sound, its tables."},
    footer = {"", "Exit codes: 0 the warehouse is sound, 1 runtime failure, 2 it is damaged (the problems on stdout, one "
        + "line on stderr), or no warehouse, or one newer than this benchlake."})
public final class VerifyCommand implements Callable<Integer>, Validated {
  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--deep", description = "Also read every data file whole (Parquet pages, checksum files): what a "
      + "read of a file overwritten by something of the same size would stumble on.")
  boolean deep;

  @Spec
  CommandSpec spec;

  /** The warehouse's form, before anything is read. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    WarehouseVerify.Report report = WarehouseVerify.run(warehouseOption.dir(), new Configuration(), deep);
    PrintWriter out = spec.commandLine().getOut();
    for (WarehouseProblem problem : report.problems()) {
      out.println(problem.line());
    }
    out.flush();
    if (!report.sound()) {
      throw new BadInputException("the warehouse at " + report.root() + " is damaged: " + report.problems().size()
          + " problem" + (report.problems().size() == 1 ? "" : "s") + " (on stdout); restore those files from a backup "
          + "(verify changed nothing)");
    }
    TextTable tables = new TextTable("TABLE", "VERSION", "DATA FILES", "BYTES");
    for (TableCheck table : report.tables()) {
      tables.row(table.table().dirName(), table.version(), table.dataFiles(), table.dataBytes());
    }
    out.print(tables.render());
    int format = report.format().orElseThrow();
    out.println("sound: format " + format + (format < WarehouseFormat.CURRENT
        ? " (an earlier benchlake's: 'benchlake upgrade' before adding runs)" : "")
        + "; every log file reads whole, every data file is there with its recorded size"
        + (deep ? " and reads whole" : " (their bytes not read: --deep reads them)"));
    out.flush();
    return ExitCode.OK;
  }
}
