package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.history.HistorySite;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.trend.StepGroups;
import dev.benchlake.analysis.trend.Trend;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.cli.WarehouseOption;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake history}: every step along nightly dates (or commits in order) as a static site. */
@Command(name = "history", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Write a static, offline site of every step along --by (default: date, for nightly results): index.html with"
          + " what changed across all steps (their change points, newest first, larger first on the same value) and"
          + " every step with a sparkline, its latest value, its last change point and its runs; a page per step in"
          + " steps/ with its chart, change points and the runs behind every value; history.json with the figures."
          + " The same analysis as trend (per step and value the geometric mean over the runs; change points by"
          + " E-divisive means, a permutation test at --change-point-alpha).",
      "Open index.html from the file system in any browser; the pages need no script."
    },
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 the --fail-on gate failed."})
public final class HistoryCommand implements Callable<Integer>, Validated {
  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--by", paramLabel = "KEY", defaultValue = TrendRequest.BY_DATE,
      description = "The run dimension or label along which to follow the steps (default: ${DEFAULT-VALUE}: a run's"
          + " label date when it has one, else the UTC day of its started_at). Values that are neither dates,"
          + " timestamps nor versions (commits) need --order-by.")
  String by;

  @Mixin
  SeriesOptions series;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  ConfounderOptions confounders;

  @Mixin
  ChangePointGateOptions gate;

  @Option(names = "--out", paramLabel = "DIR", required = true,
      description = "Folder of the site: index.html, steps/, history.json (written again in place).")
  Path out;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private TrendRequest request;
  private boolean gated;

  /** Every option's value (metric, selector, settings, the gate) before anything runs. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
    RunSelector.parse(series.where());
    request = new TrendRequest(by.trim(), null, series.metric(), series.where(), StepGroups.builtIn(),
        statistics.settings(), series.changePointAlpha(), List.of(), series.orderBy());
    confounders.deadTupleThreshold();
    gated = gate.enabled("history");
  }

  @Override
  public List<Path> writes() {
    return Validated.local(out);
  }

  @Override
  public Integer call() {
    validate(Preflight.ALONE);
    // Before Spark starts: a damaged warehouse, a --where that matches no run, values with no order.
    Trend.checkSelection(warehouseOption.openWholeBeforeSpark(sparkOptions), request);
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("history"));
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    TrendReport report = Trend.run(warehouse, tables, request, confounders.deadTupleThreshold());
    HistorySite.write(report, Provenance.of(tables, "history", Provenance.argsOf(spec)), out);
    PrintWriter stdout = spec.commandLine().getOut();
    long changes = report.steps().stream().mapToLong(s -> s.changePoints().size()).sum();
    stdout.println("History of " + report.steps().size() + " steps along " + report.versions().size() + " values of "
        + report.by() + ", " + changes + " change point(s): " + out.toAbsolutePath().normalize().resolve(HistorySite.INDEX));
    stdout.flush();
    return gated ? gate.apply(report, "history", spec.commandLine().getErr()) : ExitCode.OK;
  }
}
