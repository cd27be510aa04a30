package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.trend.StepGroups;
import dev.benchlake.analysis.trend.Trend;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.analysis.trend.TrendMarkdown;
import dev.benchlake.analysis.trend.TrendMetric;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.cli.WarehouseOption;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.Warehouse;
import java.io.PrintWriter;
import java.nio.file.Path;
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
          + " between consecutive versions (Welch's t on the logs, corrected for multiple comparisons).",
      "Figures come from each run's tasks when it has them, else from its whole-run step_metrics (sysbench, pgbench,"
          + " wide CSV tables). Writes trend.json, trend.md and trend.html into --out and prints the group table."
    },
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input."})
public final class TrendCommand implements Callable<Integer> {
  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--by", paramLabel = "KEY", required = true,
      description = "The run dimension or label whose values are the versions, e.g. db_major.")
  String by;

  @Option(names = "--base", paramLabel = "VALUE", required = true,
      description = "The version every other is relative to, e.g. 11.")
  String base;

  @Option(names = "--metric", paramLabel = "M", defaultValue = "qps",
      description = "qps or tps (throughput, higher is better), mean_s, min_s, max_s or pN_s such as p50_s, p99_s,"
          + " p999_s (latency in seconds, lower is better). Default: ${DEFAULT-VALUE}.")
  String metric;

  @Option(names = "--where", paramLabel = "SELECTOR",
      description = "Only runs matching key=value[,key=value…], e.g. workload=sysbench,os=linux.")
  String where;

  @Option(names = "--groups", paramLabel = "FILE",
      description = "Step groups (JSON or YAML): {steps: {name: group}, rules: [{match: regex, group: g}]},"
          + " applied before the built-in name rules.")
  Path groups;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  ConfounderOptions confounders;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Folder for trend.json, trend.md and trend.html.")
  Path out;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    TrendRequest request = new TrendRequest(by.trim(), base.trim(), TrendMetric.parse(metric), where,
        groups == null ? StepGroups.builtIn() : StepGroups.read(groups), statistics.alpha(),
        statistics.margin(), statistics.correction());
    double deadTupleThreshold = confounders.deadTupleThreshold();
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("trend")).requireExisting();
    TrendReport report = Trend.run(warehouse, request, deadTupleThreshold);
    TrendFiles.write(report, Provenance.of(warehouse, "trend", spec.commandLine().getParseResult().originalArgs()), out);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(TrendMarkdown.summary(report));
    stdout.flush();
    return ExitCode.OK;
  }
}
