package dev.benchlake.warehouse.cli;

import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.write.WarehouseUpgrade;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code benchlake upgrade}: a warehouse of an earlier benchlake to this one's format (see {@link WarehouseUpgrade}). */
@Command(name = "upgrade", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Upgrade a warehouse written by an earlier benchlake to format " + WarehouseFormat.CURRENT + ", so that this "
          + "benchlake can add runs to it (reading, compare and trend work without it).",
      "It adds the new columns to each table (a metadata-only Delta commit per table; no data is rewritten, every run "
          + "is kept, old rows read the new columns as null: not recorded) and then records the new format. It is "
          + "idempotent, and a killed upgrade leaves the warehouse readable: run it again to finish. After it, "
          + "benchlake releases older than the format refuse the warehouse.",
      "stdout: each change made, or that there was nothing to do."},
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad input (no warehouse, one newer than this benchlake, a damaged "
        + "one: see 'benchlake verify', or one on a read-only folder), nothing changed."})
public final class UpgradeCommand implements Callable<Integer>, Validated {
  @Mixin
  WarehouseOption warehouseOption;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** The warehouse's form, before anything is read. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
  }

  @Override
  public Integer call() {
    validate(Preflight.ALONE);
    // Before Spark starts: no warehouse, a damaged or read-only one is one line in a second.
    warehouseOption.openWholeForWriting(sparkOptions).requireExisting();
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("upgrade"));
    PrintWriter out = spec.commandLine().getOut();
    WarehouseUpgrade.Result result = WarehouseUpgrade.run(warehouse, change -> {
      out.println(change);
      out.flush();
    });
    if (!result.changedAnything()) {
      out.println("already at format " + result.toVersion() + "; nothing changed");
    }
    out.flush();
    return ExitCode.OK;
  }
}
