package dev.benchlake.app.chain;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.Trend;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult;
import dev.benchlake.loadgen.ProgressListener;
import dev.benchlake.loadgen.StepResult;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The stages that commands driving the whole chain share (the quickstart, {@code study versions},
 * {@code study ab}): ingest loadgen runs, write a comparison or a trend with the command that
 * makes it again, one line per step.
 * Each uses the same Java API as its own command.
 */
public final class ChainStages {
  private ChainStages() {}

  /** What an ingest of loadgen runs added. */
  public record Ingested(int runs, long tasks, long rejected) {}

  /**
   * Ingests a study's loadgen runs into {@code warehouse}, saying before and after what it does
   * ({@code ingesting 12 runs into …}, {@code ingested 12 runs, 834067 tasks, 0 lines rejected}).
   */
  public static Ingested ingestLoadgenRuns(Warehouse warehouse, List<Path> runDirs, Path warehouseDir,
      java.util.function.Consumer<String> say) throws IOException {
    say.accept("ingesting " + runDirs.size() + " runs into " + warehouseDir);
    Ingested ingested = ingestLoadgenRuns(warehouse, runDirs);
    say.accept(String.format(java.util.Locale.ROOT, "ingested %d runs, %d tasks, %d lines rejected", ingested.runs(),
        ingested.tasks(), ingested.rejected()));
    return ingested;
  }

  /** Ingests loadgen run directories into {@code warehouse}. */
  public static Ingested ingestLoadgenRuns(Warehouse warehouse, List<Path> runDirs) throws IOException {
    IngestResult result = Ingest.run(warehouse.spark(), warehouse,
        new IngestRequest(runDirs, "loadgen", null, null, null, false, IngestRequest.DEFAULT_CHUNK_BYTES, null));
    long tasks = result.runs().stream().mapToLong(IngestResult.RunOutcome::tasks).sum();
    long rejected = result.files().stream().mapToLong(IngestResult.FileAccount::rejected).sum();
    return new Ingested(result.runs().size(), tasks, rejected);
  }

  /**
   * Runs the trend of {@code metric} by {@code by} relative to {@code base} (of the runs
   * {@code where} selects, every run when null), its calls made with {@code settings}, and writes
   * trend.json/md/html to {@code out}.
   */
  public static TrendReport writeTrend(Warehouse warehouse, String by, String base, String metric, String where,
      StatisticsSettings settings, Path out) {
    return writeTrend(warehouse, by, base, metric, where, settings, r -> r, out);
  }

  /**
   * The trend, not written: what a study's look decides on.
   */
  public static TrendReport trend(Warehouse warehouse, String by, String base, String metric, String where,
      StatisticsSettings settings) {
    TrendRequest request = TrendRequest.of(by, base, metric).withSettings(settings);
    if (where != null) {
      request = request.withWhere(where);
    }
    return Trend.run(warehouse, KernelWarehouse.of(warehouse), request,
        TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
  }

  /**
   * As {@link #writeTrend(Warehouse, String, String, String, String, StatisticsSettings, Path)}, the
   * report passed through {@code finish} before it is written (a study adds its control and stop).
   */
  public static TrendReport writeTrend(Warehouse warehouse, String by, String base, String metric, String where,
      StatisticsSettings settings, java.util.function.UnaryOperator<TrendReport> finish, Path out) {
    TrendRequest request = TrendRequest.of(by, base, metric).withSettings(settings);
    List<String> args = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--by", by, "--base", base,
        "--metric", metric));
    args.addAll(settings.options());
    if (where != null) {
      request = request.withWhere(where);
      args.addAll(List.of("--where", where));
    }
    args.addAll(List.of("--out", out.toString()));
    // Read after the ingests before it, once: the provenance names the commit this trend read.
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    TrendReport report = finish.apply(Trend.run(warehouse, tables, request,
        TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD));
    TrendFiles.write(report, Provenance.of(tables, "trend", args), out);
    return report;
  }

  /**
   * Compares the runs {@code candidate} selects with those {@code baseline} selects (latency over
   * {@code thresholdS} counts as an error when it is set) and writes report.json/md/html to
   * {@code out}, with the command that makes the same report again.
   */
  public static ComparisonReport writeCompare(Warehouse warehouse, String baseline, String candidate, Duration threshold,
      Path out) {
    return writeCompare(warehouse, baseline, candidate, threshold, StatisticsSettings.DEFAULTS, r -> r, out);
  }

  /**
   * The comparison at {@code settings}, {@code finish}ed (a study adds its a/a control, or the
   * look it stopped at), written to {@code out}.
   */
  public static ComparisonReport writeCompare(Warehouse warehouse, String baseline, String candidate, Duration threshold,
      StatisticsSettings settings, UnaryOperator<ComparisonReport> finish, Path out) {
    List<String> args = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--baseline", baseline, "--candidate",
        candidate));
    if (threshold != null) {
      args.addAll(List.of("--threshold", threshold.toSeconds() + "s"));
    }
    args.addAll(settings.options());
    args.addAll(List.of("--out", out.toString()));
    // Read after the ingests before it, once: the provenance names the commit this compare read.
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    ComparisonReport report = finish.apply(compare(warehouse, tables, baseline, candidate, threshold, settings));
    CompareFiles.write(report, Provenance.of(tables, "compare", args), out);
    return report;
  }

  /** The comparison at {@code settings}, not written: e.g. a study's interim look. */
  public static ComparisonReport compare(Warehouse warehouse, String baseline, String candidate, Duration threshold,
      StatisticsSettings settings) {
    return compare(warehouse, KernelWarehouse.of(warehouse), baseline, candidate, threshold, settings);
  }

  private static ComparisonReport compare(Warehouse warehouse, KernelWarehouse tables, String baseline,
      String candidate, Duration threshold, StatisticsSettings settings) {
    CompareRequest request = CompareRequest.of(baseline, candidate).withSettings(settings);
    if (threshold != null) {
      request = request.withThresholdNs(threshold.toNanos());
    }
    return Compare.run(warehouse, tables, request, TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
  }

  /** One indented line per finished step: what a user wants to see scroll by. */
  public static ProgressListener stepLines(PrintWriter log) {
    return new ProgressListener() {
      @Override
      public void onStepEnd(StepResult step) {
        log.println(String.format(Locale.ROOT, "    %-34s %7d tasks  %6d errors  %9.1f ok/s", step.step(),
            step.attempts(), step.errors(), step.okPerSecond()));
        log.flush();
      }
    };
  }
}
