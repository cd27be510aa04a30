package dev.benchlake.app.quickstart;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.core.Labels;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.LoadgenDefaults;
import dev.benchlake.loadgen.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * The whole chain on one machine: loadgen runs against embedded PostgreSQL of several majors,
 * ingest into a fresh warehouse, then the comparison and the version trend. Each stage uses the
 * same Java API as its command, so the quickstart shows exactly what the commands do.
 */
public final class Quickstart {
  private final QuickstartPlan plan;
  private final QuickstartLayout layout;
  private final PrintWriter log;

  public Quickstart(QuickstartPlan plan, QuickstartLayout layout, PrintWriter log) {
    this.plan = plan;
    this.layout = layout;
    this.log = log;
  }

  /** What the quickstart produced. */
  public record Outcome(Warehouse warehouse, ComparisonReport comparison, TrendReport trend, List<Path> runDirs) {}

  /** Runs everything; {@code spark} is created only once the load is done (it would compete for CPU). */
  public Outcome run(Supplier<SparkSession> spark) throws IOException {
    layout.prepare();
    List<Path> runDirs = generateLoad();
    Warehouse warehouse = Warehouse.at(spark.get(), layout.warehouse().toString());
    ingest(warehouse, runDirs);
    ComparisonReport comparison = compare(warehouse);
    TrendReport trend = trend(warehouse);
    return new Outcome(warehouse, comparison, trend, runDirs);
  }

  /**
   * Every run on a server of its own (a fresh cluster and start; loadgen starts and stops it): runs
   * that share a server start share its caches and state, so they would replicate less than they
   * seem to (issue 13.9). Each manifest records its server start.
   */
  private List<Path> generateLoad() {
    List<Path> runDirs = new ArrayList<>();
    List<QuickstartPlan.Run> schedule = plan.schedule();
    for (int i = 0; i < schedule.size(); i++) {
      QuickstartPlan.Run run = schedule.get(i);
      Path dir = layout.runs().resolve(run.dirName());
      LoadgenConfig config = run.workload().equals("select-update") ? selectUpdate(run.major(), dir)
          : sysbench(run.major(), dir);
      stage(String.format(Locale.ROOT, "[%d/%d] PostgreSQL %d, run %d of %d: %s (on a fresh server)", i + 1,
          schedule.size(), run.major(), run.round(), plan.runs(), run.workload()));
      RunResult result = Loadgen.run(config, ChainStages.stepLines(log));
      runDirs.add(result.runDir());
    }
    return runDirs;
  }

  private LoadgenConfig selectUpdate(int major, Path dir) {
    return common(major, dir)
        .workload("select-update")
        .scale(plan.selectUpdateScale())
        .mode(LoadgenConfig.Mode.burst(plan.burst(), plan.pool(), LoadgenDefaults.POOL_TIMEOUT))
        .tasks((long) plan.burst())
        .build();
  }

  private LoadgenConfig sysbench(int major, Path dir) {
    return common(major, dir)
        .workload("sysbench")
        .steps(plan.sysbenchSteps())
        .tables(1)
        .tableSize(10_000)
        .mode(LoadgenConfig.Mode.closed(plan.clients()))
        .duration(plan.stepDuration())
        .warmup(plan.warmup())
        .build();
  }

  private LoadgenConfig.Builder common(int major, Path dir) {
    return LoadgenConfig.builder()
        .target(new LoadgenConfig.Embedded(major, Map.of(), null))
        .outDir(dir)
        .randomSeed(20_161_129L + major)
        .labels(Map.of(Labels.OS, System.getProperty("os.name").toLowerCase(Locale.ROOT), "source", "quickstart"));
  }

  private void ingest(Warehouse warehouse, List<Path> runDirs) throws IOException {
    stage("ingesting " + runDirs.size() + " runs into " + layout.warehouse());
    ChainStages.Ingested result = ChainStages.ingestLoadgenRuns(warehouse, runDirs);
    stage(String.format(Locale.ROOT, "ingested %d runs, %d tasks, %d lines rejected", result.runs(), result.tasks(),
        result.rejected()));
  }

  private ComparisonReport compare(Warehouse warehouse) {
    int base = plan.majors().get(0);
    int candidate = plan.majors().get(plan.majors().size() - 1);
    stage("comparing PostgreSQL " + candidate + " with " + base);
    Duration threshold = Duration.ofSeconds(5);
    // Read after the ingest above, once: the provenance names the commit this compare read.
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    ComparisonReport report = Compare.run(warehouse, tables,
        CompareRequest.of(QuickstartPlan.selector(base), QuickstartPlan.selector(candidate))
            .withThresholdNs(threshold.toNanos()), TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
    // The report's provenance names the command that makes the same report again.
    CompareFiles.write(report, Provenance.of(tables, "compare", List.of("--warehouse", warehouse.root(),
        "--baseline", QuickstartPlan.selector(base), "--candidate", QuickstartPlan.selector(candidate),
        "--threshold", threshold.toSeconds() + "s", "--out", layout.compare().toString())), layout.compare());
    return report;
  }

  /** Throughput per step across the majors, relative to the first (the trend of every major run). */
  private TrendReport trend(Warehouse warehouse) {
    String base = Integer.toString(plan.majors().get(0));
    stage("trend of qps by PostgreSQL major, relative to " + base);
    return ChainStages.writeTrend(warehouse, QuickstartPlan.BY, base, "qps", null, layout.trend());
  }

  private void stage(String message) {
    log.println("quickstart: " + message);
    log.flush();
  }
}
