package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.analysis.compare.RunLevelEffect;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.testing.WarehouseFixture;
import dev.benchlake.analysis.testing.WarehouseFixture.Run;
import dev.benchlake.analysis.testing.WarehouseFixture.Task;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart's situation, which issue 13 found misreported: 5 vs 5 runs whose medians differ
 * by about 12 % from run to run (SD of the log per-run medians ≈ 0.12), a true change of −10 %,
 * and thousands of tasks per run, so that every task-level test gives p < 0.001. Five runs cannot
 * tell a −10 % change from none at this run-to-run noise: the verdict must be {@code inconclusive},
 * with θ's run-level interval, and no task-level p-value next to it.
 */
@Tag("integration")
class QuickstartLikeVerdictTest extends SparkTestBase {
  /** Log offsets of the runs' medians: sample SD 0.122. */
  private static final double[] RUN_OFFSETS = {-0.16, -0.07, 0.0, 0.06, 0.17};
  private static final int TASKS_PER_RUN = 2000;

  @TempDir
  static Path tmp;

  private static ComparisonReport report;

  @BeforeAll
  static void compare() {
    SplittableRandom random = new SplittableRandom(2013);
    List<Run> runs = new ArrayList<>();
    List<Task> tasks = new ArrayList<>();
    for (String version : List.of("14", "17")) {
      double change = version.equals("17") ? Math.log(0.9) : 0;
      for (int r = 0; r < RUN_OFFSETS.length; r++) {
        String id = "pg" + version + "-" + r;
        runs.add(new Run(id, Map.of("db_major", version)));
        // The candidate's runs visit the offsets in another order, as independent runs would.
        double offset = RUN_OFFSETS[version.equals("17") ? (r + 2) % RUN_OFFSETS.length : r];
        for (int i = 0; i < TASKS_PER_RUN; i++) {
          double latencyNs = 1_000_000 * Math.exp(offset + change + 0.3 * random.nextGaussian());
          tasks.add(Task.ok(id, "point-select", (long) latencyNs));
        }
      }
    }
    report = Compare.run(WarehouseFixture.write(spark, tmp.resolve("warehouse").toString(), runs, tasks),
        CompareRequest.of("db_major=14", "db_major=17"));
  }

  @Test
  void manyTasksDoNotMakeFiveRunsConclusive() {
    StepComparison step = report.steps().get(0);
    RunLevelEffect median = step.runLevel().median();
    Estimate theta = median.estimate();
    assertThat(step.tests().mannWhitney().p()).as("task level").isLessThan(0.001);
    assertThat(step.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(theta.ratio()).isBetween(0.85, 0.95);
    assertThat(theta.ci95().low()).isLessThan(1 / 1.05);
    assertThat(theta.ci95().high()).isGreaterThan(1.0);
    assertThat(theta.betweenRunSdLog()).isBetween(0.1, 0.14);
    assertThat(median.withinRunSeLog()).as("a run's own noise is small").isLessThan(0.02);
    assertThat(median.runsNeeded()).isGreaterThan(5);
    assertThat(step.explanation()).startsWith("Inconclusive: per-run median latency " + Format.change(theta.ratio() - 1))
        .contains("95% interval " + Format.changeInterval(theta.ci95()))
        .contains("about " + median.runsNeeded() + " runs per group would decide it")
        .contains("more tasks per run will not help; more runs will")
        .doesNotContain("p_adj").doesNotContain("< 0.001");
  }

  @Test
  void theSummaryRowShowsThetaAndItsIntervalNeverATaskLevelP() {
    RunLevelEffect median = report.steps().get(0).runLevel().median();
    Estimate theta = median.estimate();
    String row = CompareMarkdown.summaryTable(report).lines().filter(l -> l.contains("point-select")).findFirst().orElseThrow();
    assertThat(row).isEqualTo("| `point-select` | " + Format.change(theta.ratio() - 1) + " | "
        + Format.changeInterval(theta.ci95()) + " | **inconclusive** | 5 vs 5 | " + median.runsNeeded() + " |");
    assertThat(CompareMarkdown.summaryTable(report)).doesNotContain("no_significant_difference").doesNotContain("< 0.001");
  }
}
