package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.trend.StepGroups;
import dev.benchlake.analysis.trend.Trend;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.analysis.trend.TrendMarkdown;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.cli.WarehouseOption;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake trend}: a metric per step across versions, relative to a base version. */
@Command(name = "trend", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Follow a metric per step across the values of a run dimension (e.g. PostgreSQL majors), relative to a base:"
          + " per step and version the geometric mean over the runs and its ratio to the base with a 95%% interval"
          + " over the repeats, a noise mark where repeats disagree more than the change, per step group (point"
          + " query, range query, writes, other) the geometric mean of the ratios, and the significant changes"
          + " between consecutive versions (Welch's t on the logs, corrected for multiple comparisons), and per step the"
          + " change points where its level shifts along the versions (E-divisive means on the runs' logs, a"
          + " permutation test at --change-point-alpha; in a paired trend, a duet or --pair-by, on the runs' figures"
          + " with each pair's shared moment taken out). Step names of the mytools study (<test>_range=<R>) fall into its five"
          + " groups: point query parts 1 and 2, range query parts 1 and 2, writes; its warm-up step (.warm) in a group"
          + " of its own, warm-up.",
      "Figures come from each run's tasks when it has them, else from its whole-run step_metrics (sysbench, pgbench,"
          + " wide CSV tables). Writes trend.json, trend.md and trend.html into --out and prints the group table."
    },
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 the --fail-on gate failed."})
public final class TrendCommand implements Callable<Integer>, Validated {
  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--by", paramLabel = "KEY", required = true,
      description = "The run dimension or label whose values are the versions, e.g. db_major; 'date' for nightly"
          + " history: a run's label date when it has one, else the UTC day (yyyy-MM-dd) of its started_at. Dates and"
          + " timestamps sort by time (a day without a run shows as a gap), versions as versions (9.6 < 10 < 14.10);"
          + " other values need --order-by for a series (commits: --order-by commit_time); names (configurations,"
          + " profiles) with a --base are each compared against it, without change points or the --fail-on gate.")
  String by;

  @Option(names = "--base", paramLabel = "VALUE",
      description = "The version every other is relative to, e.g. 11 (default: the first in order; with --by date the"
          + " oldest day).")
  String base;

  @Option(names = "--groups", paramLabel = "FILE",
      description = "Step groups (JSON or YAML): {steps: {name: group}, rules: [{match: regex, group: g}]},"
          + " applied before the built-in name rules.")
  Path groups;

  @Mixin
  SeriesOptions series;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  PairingOptions pairing;

  @Mixin
  ConfounderOptions confounders;

  @Mixin
  ChangePointGateOptions gate;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Folder for trend.json, trend.md and trend.html.")
  Path out;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private TrendRequest request;
  private double deadTupleThreshold;
  private boolean gated;

  /** Every option's value (metric, selector, settings, groups file, the gate) before anything runs. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
    RunSelector.parse(series.where());
    request = new TrendRequest(by.trim(), base == null || base.isBlank() ? null : base.trim(),
        series.metric(), series.where(), groups == null ? StepGroups.builtIn() : StepGroups.read(groups),
        statistics.settings(), series.changePointAlpha(), pairing.labels(), series.orderBy());
    deadTupleThreshold = confounders.deadTupleThreshold();
    gated = this.gate.enabled("trend");
  }

  @Override
  public List<Path> writes() {
    return Validated.local(out);
  }

  @Override
  public Integer call() {
    validate(Preflight.ALONE);
    boolean gate = gated;
    // Before Spark starts: a damaged warehouse, a --where that matches no run, a --base no run has,
    // versions with no order or runs that do not pair is one line in a second.
    boolean ordered = Trend.checkSelection(warehouseOption.openWholeBeforeSpark(sparkOptions), request);
    if (gate && !ordered) {
      throw new BadInputException("--fail-on change-point needs the values of --by " + request.by() + " in an order,"
          + " and these are names: add --order-by LABEL");
    }
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("trend"));
    // One reader of the small tables for the whole command: the provenance names the commit it read.
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    // Trend.run fails first when there is no warehouse.
    TrendReport report = Trend.run(warehouse, tables, request, deadTupleThreshold);
    TrendFiles.write(report, Provenance.of(tables, "trend", Provenance.argsOf(spec)), out);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(TrendMarkdown.summary(report));
    stdout.flush();
    if (!gate) {
      return ExitCode.OK;
    }
    return this.gate.apply(report, "trend", spec.commandLine().getErr());
  }
}
