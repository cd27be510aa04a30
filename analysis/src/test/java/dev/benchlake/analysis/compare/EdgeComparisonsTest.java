package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.CompareJson;
import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.testing.WarehouseFixture;
import dev.benchlake.analysis.testing.WarehouseFixture.Run;
import dev.benchlake.analysis.testing.WarehouseFixture.Task;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparisons where statistics have least to hold on to, beside the {@code edges} reference
 * case (1 task vs 2, failures on one side, identical 1-run samples): every one gets a defined
 * verdict and a message that says why, and both report files are written.
 *
 * <ul>
 *   <li>{@code all-failed}: only failed tasks in both groups;
 *   <li>{@code single}: one task in each group;
 *   <li>{@code identical}: the same latency in every task of 8 runs per group (no between-run
 *       variance to estimate an interval from);
 *   <li>{@code baseline-only}: tasks in the baseline only (not compared, listed as such);
 *   <li>a candidate whose runs have no task at all: bad input, with a message that says so;
 *   <li>groups whose runs share no step: bad input naming each group's steps.
 * </ul>
 */
@org.junit.jupiter.api.Tag("integration")
class EdgeComparisonsTest extends SparkTestBase {
  private static final int RUNS = 8;

  @TempDir
  static Path tmp;

  private static ComparisonReport report;
  private static Map<String, StepComparison> steps;

  @BeforeAll
  static void compare() {
    List<Run> runs = new ArrayList<>();
    List<Task> tasks = new ArrayList<>();
    for (int r = 0; r < RUNS; r++) {
      for (String group : List.of("b", "c")) {
        String id = group + r;
        runs.add(new Run(id, Map.of("grp", group)));
        for (int i = 0; i < 5; i++) {
          tasks.add(Task.ok(id, "identical", 3_000_000L));
          tasks.add(Task.failed(id, "all-failed", "57014", "canceling statement due to statement timeout"));
        }
        if (group.equals("b")) {
          tasks.add(Task.ok(id, "baseline-only", 1_000_000L));
        }
      }
    }
    tasks.add(Task.ok("b0", "single", 2_000_000L));
    tasks.add(Task.ok("c0", "single", 2_500_000L));
    runs.add(new Run("empty1", Map.of("grp", "empty")));
    runs.add(new Run("empty2", Map.of("grp", "empty")));
    runs.add(new Run("other1", Map.of("grp", "other")));
    tasks.add(Task.ok("other1", "other-only", 1_000_000L));
    Warehouse warehouse = WarehouseFixture.write(spark, tmp.resolve("warehouse").toString(), runs, tasks);
    report = Compare.run(warehouse, CompareRequest.of("grp=b", "grp=c"));
    steps = report.steps().stream().collect(Collectors.toMap(StepComparison::step, s -> s));
  }

  @Test
  void onlyFailedTasksInBothGroupsIsInconclusiveAndSaysWhy() {
    StepComparison s = steps.get("all-failed");
    assertThat(s.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(s.explanation()).startsWith("Inconclusive: no run of either group has a successful task")
        .contains("Errors: 40 vs 40 tasks; mean per-run error rate 100% vs 100%");
    assertThat(s.groups().baseline().p50S()).isNull();
    assertThat(s.tests().mannWhitney()).isNull();
    assertThat(s.tests().fisherErrorsP()).isEqualTo(1.0);
  }

  @Test
  void aSingleTaskInEachGroupIsInconclusiveForLackOfRuns() {
    StepComparison s = steps.get("single");
    assertThat(s.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(s.explanation()).startsWith("Inconclusive: both groups have a single run: one run cannot show how much"
        + " runs differ");
    assertThat(s.runLevel().median().estimate().ratio()).isNull();
    assertThat(s.groups().baseline().tasks()).isEqualTo(1);
    assertThat(s.groups().candidate().p50S()).isEqualTo(0.0025);
  }

  @Test
  void identicalSamplesWithoutVariationAreInconclusiveAndSayWhy() {
    StepComparison s = steps.get("identical");
    assertThat(s.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(s.explanation()).startsWith("Inconclusive: the per-run median figures do not vary at all");
    assertThat(s.tests().mannWhitney().p()).isEqualTo(1.0);
    assertThat(s.tests().medianRatio().ratio()).isEqualTo(1.0);
    assertThat(s.tests().cliffs().delta()).isEqualTo(0.0);
  }

  @Test
  void aStepInOneGroupOnlyIsListedAsNotCompared() {
    assertThat(steps).doesNotContainKey("baseline-only");
    assertThat(report.skippedSteps()).containsExactly("baseline-only");
    assertThat(CompareMarkdown.write(report)).contains("Not compared (tasks in one group only): `baseline-only`.");
    assertThat(CompareJson.write(report)).contains("\"verdict\": \"inconclusive\"")
        .doesNotContain("no_significant_difference");
  }

  @Test
  void aGroupWithoutAnyTaskIsBadInputThatSaysSo() {
    Warehouse warehouse = Warehouse.at(spark, tmp.resolve("warehouse").toString());
    assertThatThrownBy(() -> Compare.run(warehouse, CompareRequest.of("grp=b", "grp=empty")))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("the candidate runs ('grp=empty': 2 runs, fixture)"
            + " have no tasks: compare needs per-task latencies on both sides, or select runs with tasks");
  }

  /** Selectors that are right, but runs of different steps: the message names each side's, not only the selectors. */
  @Test
  void groupsWithNoStepInCommonNameEachSidesSteps() {
    Warehouse warehouse = Warehouse.at(spark, tmp.resolve("warehouse").toString());
    assertThatThrownBy(() -> Compare.run(warehouse, CompareRequest.of("grp=c", "grp=other")))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("no step has tasks in both groups (the baseline's"
            + " steps: all-failed, identical, single; the candidate's: other-only): steps are compared by name");
  }
}
