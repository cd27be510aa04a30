package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.Correction;
import dev.benchlake.analysis.compare.OutlierPolicy;
import dev.benchlake.analysis.report.ComparisonReport;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.ReportFiles;
import dev.benchlake.analysis.report.ReportMarkdown;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.cli.WarehouseOption;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.Warehouse;
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
      "Compare the latencies of two groups of runs, step by step: exact quantiles, Mann-Whitney U,"
          + " Welch's t, Kolmogorov-Smirnov, Fisher's test on errors, Hodges-Lehmann, Cliff's delta, a bootstrap"
          + " interval of the median ratio, and the same at run level (the run is the unit of replication),"
          + " with a verdict per step.",
      "Writes report.json, report.md and report.html (one self-contained page with charts) into --out and prints"
          + " the summary table."
    },
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 regression found (--fail-on regression)."})
public final class CompareCommand implements Callable<Integer> {
  /** What makes {@code --fail-on} exit with {@link ExitCode#REGRESSION}. */
  public enum FailOn {
    /** A step whose verdict is {@code slower}: significant and beyond the margin. */
    REGRESSION
  }

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

  @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.05",
      description = "Significance level (default: ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--margin", paramLabel = "M", defaultValue = "5%",
      description = "Practical-equivalence margin on the median: changes smaller than this are negligible "
          + "(default: 5%%; written 5%% or 0.05).")
  String margin;

  @Option(names = "--threshold", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Also count the successful tasks faster than this, e.g. 5s or 250ms.")
  Duration threshold;

  @Option(names = "--correction", paramLabel = "METHOD", defaultValue = "holm",
      description = "Adjustment across steps: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Correction correction;

  @Option(names = "--fail-on", paramLabel = "WHAT",
      description = "regression: exit with 3 when a step is significantly slower beyond the margin "
          + "(a CI gate; needs enough runs per group, e.g. 4 vs 4 at alpha 0.05).")
  FailOn failOn;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Folder for report.json, report.md and report.html.")
  Path out;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    CompareRequest request = CompareRequest.of(baseline, candidate)
        .withSteps(steps)
        .withOutliers(OutlierPolicy.parse(outliers))
        .withAlpha(checkAlpha(alpha))
        .withMargin(parseMargin(margin))
        .withThresholdNs(threshold == null ? null : threshold.toNanos())
        .withCorrection(correction);
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("compare")).requireExisting();
    ComparisonReport report = Compare.run(warehouse, request);
    ReportFiles.write(report, Provenance.of(warehouse, "compare", spec.commandLine().getParseResult().originalArgs()), out);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(ReportMarkdown.summaryTable(report));
    stdout.flush();
    return failOn == FailOn.REGRESSION && report.hasRegression() ? ExitCode.REGRESSION : ExitCode.OK;
  }

  /** {@code --alpha}, which must lie in (0, 1). */
  static double checkAlpha(double alpha) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new BadInputException("--alpha must be between 0 and 1 (exclusive), not " + alpha);
    }
    return alpha;
  }

  /** {@code 5%} or {@code 0.05}, in [0, 1). */
  static double parseMargin(String text) {
    String t = text.trim();
    try {
      double value = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100 : Double.parseDouble(t);
      if (value >= 0 && value < 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadInputException("--margin '" + text + "' is not a fraction in [0, 1) or a percentage, e.g. 5% or 0.05");
  }
}
