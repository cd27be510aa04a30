package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.OutlierPolicy;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.analysis.report.Markdown;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.cli.WarehouseOption;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake compare}: is the candidate faster, slower, or not measurably different? */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Compare two groups of runs, step by step, with the run as the unit of replication: the change theta"
          + " (ratio of the geometric means of the per-run medians; also per-run p99 and throughput) with its"
          + " interval, and a verdict per step: faster, slower, equivalent within the margin, or inconclusive with"
          + " the runs needed. Task-level tests (Mann-Whitney, KS, Welch, Hodges-Lehmann, Cliff's delta, Fisher)"
          + " are reported as descriptive.",
      "Writes report.json, report.md and report.html (one self-contained page with charts) into --out and prints"
          + " the summary table."
    },
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 the --fail-on gate failed."})
public final class CompareCommand implements Callable<Integer>, Validated {
  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--baseline", paramLabel = "SELECTOR", required = true,
      description = "Runs of the baseline: key=value[,key=value…] over labels and dimensions, e.g. os=linux.")
  String baseline;

  @Option(names = "--candidate", paramLabel = "SELECTOR", required = true,
      description = "Runs of the candidate, e.g. os=windows. No run may match both selectors.")
  String candidate;

  @Option(names = "--step", paramLabel = "S",
      description = "Compare only this step (repeatable). Default: every step present in both groups.")
  List<String> steps = new ArrayList<>();

  @Option(names = "--outliers", paramLabel = "POLICY", defaultValue = "none",
      description = "none (default), iqr[:k] (Tukey fences, k=1.5), mad[:z] (modified z-score, z=3.5) or trim:P "
          + "(P%% from each tail); applied per step and group, and reported.")
  String outliers;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  ConfounderOptions confounders;

  @Mixin
  PairingOptions pairing;

  @Option(names = "--threshold", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "Also count the successful tasks faster than this, e.g. 5s or 250ms.")
  Duration threshold;

  @Option(names = "--fail-on", paramLabel = "WHAT", converter = FailOn.OfCompare.class,
      description = "A CI gate, exit 3: regression (a step is slower), inconclusive (a step is slower or"
          + " inconclusive: demands evidence of no regression), not-equivalent (a step is not shown equivalent"
          + " within the margin) or undecided (a step is inconclusive).")
  FailOn failOn;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Folder for report.json, report.md and report.html.")
  Path out;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private CompareRequest request;
  private double deadTupleThreshold;

  /** Every option's value (selectors, outlier policy, α, margin, correction, thresholds) before anything runs. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
    RunSelector.parse(baseline);
    RunSelector.parse(candidate);
    request = CompareRequest.of(baseline, candidate)
        .withSteps(steps)
        .withOutliers(OutlierPolicy.parse(outliers))
        .withSettings(statistics.settings())
        .withThresholdNs(threshold == null ? null : threshold.toNanos())
        .withPairBy(pairing.labels());
    deadTupleThreshold = confounders.deadTupleThreshold();
  }

  @Override
  public List<Path> writes() {
    return Validated.local(out);
  }

  @Override
  public Integer call() {
    validate(Preflight.ALONE);
    // Before Spark starts: a damaged warehouse, a selector that matches no run, or runs that do not
    // pair (--pair-by naming a label a run lacks) is one line in a second.
    Compare.checkSelection(warehouseOption.openWholeBeforeSpark(sparkOptions), request);
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("compare"));
    // One reader of the small tables for the whole command: the provenance names the commit it read.
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    // Compare.run fails first when there is no warehouse.
    ComparisonReport report = Compare.run(warehouse, tables, request, deadTupleThreshold);
    CompareFiles.write(report, Provenance.of(tables, "compare", Provenance.argsOf(spec)), out);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(Markdown.warnings(report.warnings()) + CompareMarkdown.summaryTable(report));
    stdout.flush();
    List<String> failures = failOn == null ? List.of() : failOn.failures(FailOn.calls(report));
    if (failures.isEmpty()) {
      return ExitCode.OK;
    }
    PrintWriter stderr = spec.commandLine().getErr();
    failures.forEach(stderr::println);
    stderr.flush();
    return ExitCode.REGRESSION;
  }
}
