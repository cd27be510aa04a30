package dev.benchlake.analysis.compare;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.GroupStatistics;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.compare.RunLevel;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.compare.RunLevelEffect;
import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.testing.ReferenceCases;
import dev.benchlake.analysis.testing.ReferenceCases.Case;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Whole comparisons on Spark against every figure numpy and scipy give for the same tasks. */
@org.junit.jupiter.api.Tag("integration")
class CompareCasesTest extends SparkTestBase {
  private static final Map<String, ComparisonReport> REPORTS = new HashMap<>();

  static List<Case> cases() {
    return ReferenceCases.all();
  }

  static Warehouse warehouse(Case c) {
    return ReferenceCases.warehouse(spark, c);
  }

  public static CompareRequest request(Case c) {
    JsonNode s = c.settings();
    return CompareRequest.of("os=linux", "os=windows")
        .withOutliers(OutlierPolicy.parse(s.get("outliers").asText()))
        .withSettings(StatisticsSettings.DEFAULTS.withAlpha(s.get("alpha").asDouble())
            .withCorrection(Correction.parse(s.get("correction").asText())))
        .withThresholdNs(s.get("threshold_ns").isNull() ? null : s.get("threshold_ns").asLong())
        .withTuning(CompareRequest.Tuning.DEFAULT.withPartitions(3));
  }

  static ComparisonReport report(Case c) {
    return REPORTS.computeIfAbsent(c.name(), n -> Compare.run(warehouse(c), request(c)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyFigureMatchesNumpyAndScipy(Case c) {
    ComparisonReport report = report(c);
    JsonNode expected = c.expected().get("steps");
    List<String> steps = new ArrayList<>();
    expected.fieldNames().forEachRemaining(steps::add);
    assertThat(report.steps()).extracting(StepComparison::step).containsExactlyElementsOf(steps);
    assertThat(report.skippedSteps()).containsExactlyElementsOf(
        java.util.stream.StreamSupport.stream(c.expected().get("skipped_steps").spliterator(), false).map(JsonNode::asText).toList());
    for (StepComparison step : report.steps()) {
      JsonNode e = expected.get(step.step());
      assertGroup(step.step() + " baseline", step.groups().baseline(), e.get("baseline"));
      assertGroup(step.step() + " candidate", step.groups().candidate(), e.get("candidate"));
      assertTests(step.step(), step.tests(), e.get("tests"));
      assertRunLevel(step.step(), step.runLevel(), e.get("run_level"));
      assertThat(step.explanation()).doesNotContain("NaN").endsWith(".");
    }
  }

  @Test
  void verdictsOfTheTwoStepCase() {
    ComparisonReport report = report(ReferenceCases.named("two_steps"));
    assertThat(report.steps()).extracting(StepComparison::verdict).containsExactly(Verdict.SLOWER, Verdict.INCONCLUSIVE);
    assertThat(report.hasRegression()).isTrue();
    StepComparison read = report.steps().get(0);
    assertThat(read.runLevel().median().runsNeeded()).isNull();
    assertThat(read.runLevel().median().decision().beyondMargin()).isTrue();
    assertThat(read.explanation()).startsWith("Slower: per-run median latency +17.3% (θ = 1.173), 95% interval"
        + " [+12.3%, +22.5%] (p_adj < 0.001, 4 vs 5 runs); the whole interval lies beyond the ±5% margin: at least"
        + " 12.3% slower.").contains("Welch's t on the per-run rates");
    StepComparison write = report.steps().get(1);
    assertThat(write.runLevel().median().runsNeeded()).isGreaterThan(5);
    assertThat(write.explanation()).startsWith("Inconclusive: per-run median latency -2.6% (θ = 0.9742), 95% interval"
        + " [-6.6%, +1.6%] (4 vs 5 runs)").contains("runs per group would decide it");
    // The number next to the verdict is θ's, never a task-level p-value.
    assertThat(write.explanation()).doesNotContain("Mann").doesNotContain("Cliff");
  }

  @Test
  void edgeCasesAreInconclusiveWithReasons() {
    ComparisonReport report = report(ReferenceCases.named("edges"));
    Map<String, StepComparison> steps = new HashMap<>();
    report.steps().forEach(s -> steps.put(s.step(), s));
    assertThat(steps.values()).allSatisfy(s -> assertThat(s.verdict()).isEqualTo(Verdict.INCONCLUSIVE));
    assertThat(steps.get("failed").explanation()).startsWith("Inconclusive: no run of the candidate has a successful task")
        .contains("Errors: 0 vs 5 tasks");
    assertThat(steps.get("failed").tests().mannWhitney()).isNull();
    assertThat(steps.get("failed").groups().candidate().p50S()).isNull();
    assertThat(steps.get("one").explanation()).startsWith("Inconclusive: both groups have a single run");
    assertThat(steps.get("one").runLevel().median().estimate().ratio()).isNull();
    assertThat(steps.get("equal").tests().hodgesLehmann().ci95S()).isEqualTo(new Range(0.0, 0.0));
  }

  @Test
  void theIntervalShownIsTheOneTheVerdictRestsOnWhateverAlpha() {
    Case c = ReferenceCases.named("two_steps");
    ComparisonReport strict = Compare.run(warehouse(c), request(c).withSettings(StatisticsSettings.DEFAULTS.withAlpha(0.01)));
    Estimate m = strict.steps().get(0).runLevel().median().estimate();
    assertThat(m.ciDecision().low()).isLessThan(m.ci95().low());
    assertThat(strict.steps().get(0).explanation()).contains("99% interval " + Format.changeInterval(m.ciDecision()));
    // A level other than 95 % carries a footnote saying which level each call's interval is at (issue 49).
    assertThat(CompareMarkdown.summaryTable(strict)).startsWith("| step | change (θ) | 99% interval¹ |")
        .contains("| " + Format.changeInterval(m.ciDecision()) + " |")
        .contains("¹ The intervals are at the level of the calls: 1 − α = 99% for faster or slower");
  }

  @Test
  void thePartitioningChangesNothing() {
    Case c = ReferenceCases.named("two_steps_mad");
    ComparisonReport one = Compare.run(warehouse(c), request(c).withTuning(CompareRequest.Tuning.DEFAULT.withPartitions(1)));
    ComparisonReport five = Compare.run(warehouse(c), request(c).withTuning(CompareRequest.Tuning.DEFAULT.withPartitions(5)));
    assertThat(five).isEqualTo(one);
    assertThat(one).isEqualTo(report(c));
  }

  @Test
  void aSampledHodgesLehmannStaysCloseToTheExactOne() {
    Case c = ReferenceCases.named("two_steps");
    ComparisonReport sampled = Compare.run(warehouse(c),
        request(c).withTuning(CompareRequest.Tuning.DEFAULT.withHodgesLehmannExactLimit(500)));
    TaskTests exact = report(c).steps().get(0).tests();
    TaskTests approx = sampled.steps().get(0).tests();
    assertThat(approx.hodgesLehmann().method()).startsWith("random sample of 500 tasks per group");
    assertThat(exact.hodgesLehmann().method()).startsWith("exact");
    assertThat(approx.hodgesLehmann().shiftS()).isBetween(exact.hodgesLehmann().ci95S().low(),
        exact.hodgesLehmann().ci95S().high());
    assertThat(approx.mannWhitney().p()).isEqualTo(exact.mannWhitney().p());
  }

  private static void assertGroup(String what, GroupStatistics actual, JsonNode e) {
    assertThat(actual.runs()).as(what + " runs").isEqualTo(e.get("runs").asInt());
    assertThat(actual.tasks()).as(what + " tasks").isEqualTo(e.get("tasks").asLong());
    assertThat(actual.ok()).as(what + " ok").isEqualTo(e.get("ok").asLong());
    assertThat(actual.errors()).as(what + " errors").isEqualTo(e.get("errors").asLong());
    assertThat(actual.errorsByCode()).as(what + " errors by code").containsExactlyEntriesOf(ReferenceCases.errors(e));
    assertThat(actual.outliersRemoved()).as(what + " outliers").isEqualTo(e.get("outliers_removed").asLong());
    Double[] quantiles = {actual.minS(), actual.p50S(), actual.p90S(), actual.p95S(), actual.p99S(), actual.p999S(), actual.maxS()};
    String[] names = {"min_s", "p50_s", "p90_s", "p95_s", "p99_s", "p999_s", "max_s"};
    for (int i = 0; i < names.length; i++) {
      assertThat(quantiles[i]).as(what + " " + names[i]).isEqualTo(nullable(e.get(names[i])));
    }
    assertNullableClose(what + " mean", actual.meanS(), e.get("mean_s"), 1e-12);
    assertNullableClose(what + " error rate", actual.errorRate(), e.get("error_rate"), 1e-12);
    assertThat(actual.unfilteredP99S()).as(what + " unfiltered p99").isEqualTo(nullable(e.get("unfiltered_p99_s")));
    assertThat(actual.unfilteredMaxS()).as(what + " unfiltered max").isEqualTo(nullable(e.get("unfiltered_max_s")));
    assertNullableClose(what + " stddev", actual.stddevS(), e.get("stddev_s"), 1e-11);
    assertThat(actual.underThreshold()).as(what + " under threshold")
        .isEqualTo(e.get("under_threshold").isNull() ? null : e.get("under_threshold").asLong());
  }

  private static void assertTests(String what, TaskTests actual, JsonNode e) {
    assertClose(what + " fisher", actual.fisherErrorsP(), e.get("fisher_errors_p").asDouble(), 1e-9);
    if (!e.has("mann_whitney_u")) {
      assertThat(actual.mannWhitney()).isNull();
      assertThat(actual.ks()).isNull();
      return;
    }
    assertThat(actual.mannWhitney().u()).as(what + " U").isEqualTo(e.get("mann_whitney_u").asDouble());
    assertThat(actual.mannWhitney().method()).isEqualTo(e.get("mann_whitney_method").asText());
    assertNullableClose(what + " U p", actual.mannWhitney().p(), e.get("mann_whitney_p"), 1e-9);
    assertNullableClose(what + " p adjusted", actual.mannWhitney().pAdjusted(), e.get("p_adjusted"), 1e-9);
    assertNullableClose(what + " welch t", actual.welch().t(), e.get("welch_t"), 1e-9);
    assertNullableClose(what + " welch df", actual.welch().df(), e.get("welch_df"), 1e-9);
    assertNullableClose(what + " welch p", actual.welch().p(), e.get("welch_p"), 1e-7);
    assertNullableClose(what + " ks d", actual.ks().d(), e.get("ks_d"), 1e-12);
    assertThat(actual.ks().method()).isEqualTo(e.get("ks_method").asText());
    assertNullableClose(what + " ks p", actual.ks().p(), e.get("ks_p"), 1e-9);
    assertThat(actual.hodgesLehmann().shiftS()).as(what + " HL").isEqualTo(e.get("hl_shift_s").asDouble());
    assertThat(actual.hodgesLehmann().ci95S()).as(what + " HL CI").isEqualTo(new Range(nullable(e.get("hl_ci95_s").get(0)),
        nullable(e.get("hl_ci95_s").get(1))));
    assertNullableClose(what + " cliff", actual.cliffs().delta(), e.get("cliffs_delta"), 1e-12);
    assertThat(actual.cliffs().magnitude()).isEqualTo(e.get("cliffs_magnitude").asText());
    TaskTests.MedianRatio ratio = actual.medianRatio();
    assertThat(ratio.ratio()).as(what + " ratio").isEqualTo(e.get("median_ratio").asDouble());
    assertThat(ratio.ci95().low()).isLessThanOrEqualTo(ratio.ratio());
    assertThat(ratio.ci95().high()).isGreaterThanOrEqualTo(ratio.ratio());
  }

  private static void assertRunLevel(String what, RunLevel actual, JsonNode e) {
    Sides<List<RunFigure>> runs = actual.runs();
    assertThat(actual.runIds().baseline()).containsExactlyElementsOf(texts(e.get("baseline_run_ids")));
    assertThat(actual.runIds().candidate()).containsExactlyElementsOf(texts(e.get("candidate_run_ids")));
    assertThat(figures(runs.baseline(), RunFigure::medianS)).containsExactlyElementsOf(doubles(e.get("baseline_medians_s")));
    assertThat(figures(runs.candidate(), RunFigure::medianS)).containsExactlyElementsOf(doubles(e.get("candidate_medians_s")));
    assertNullablesClose(what + " baseline p99", figures(runs.baseline(), RunFigure::p99S), e.get("baseline_p99_s"));
    assertNullablesClose(what + " candidate p99", figures(runs.candidate(), RunFigure::p99S), e.get("candidate_p99_s"));
    assertNullablesClose(what + " baseline throughput", figures(runs.baseline(), RunFigure::throughputPerS),
        e.get("baseline_throughput_per_s"));
    assertNullablesClose(what + " candidate throughput", figures(runs.candidate(), RunFigure::throughputPerS),
        e.get("candidate_throughput_per_s"));
    assertNullablesClose(what + " baseline error rates", figures(runs.baseline(), r -> r.errorRate()),
        e.get("baseline_error_rates"));
    assertNullablesClose(what + " candidate error rates", figures(runs.candidate(), r -> r.errorRate()),
        e.get("candidate_error_rates"));
    assertEffect(what + " median", actual.median(), e.get("median"));
    assertEffect(what + " p99", actual.p99(), e.get("p99"));
    assertEffect(what + " throughput", actual.throughput(), e.get("throughput"));
  }

  private static List<Double> figures(List<RunFigure> runs, java.util.function.Function<RunFigure, Double> figure) {
    return runs.stream().map(figure).toList();
  }

  /** θ, its intervals and p-values against numpy/scipy's Welch on the logs of the per-run figures. */
  private static void assertEffect(String what, RunLevelEffect actual, JsonNode e) {
    if (e == null || e.isNull()) {
      assertThat(actual.estimate().ratio()).as(what + " ratio").isNull();
      assertThat(actual.unavailable()).as(what + " reason").isNotBlank();
      assertThat(actual.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
      return;
    }
    Estimate estimate = actual.estimate();
    assertClose(what + " ratio", estimate.ratio(), e.get("ratio").asDouble(), 1e-12);
    assertClose(what + " ci95 low", estimate.ci95().low(), e.get("ci95").get(0).asDouble(), 1e-9);
    assertClose(what + " ci95 high", estimate.ci95().high(), e.get("ci95").get(1).asDouble(), 1e-9);
    assertClose(what + " ci90 low", estimate.ci90().low(), e.get("ci90").get(0).asDouble(), 1e-9);
    assertClose(what + " ci90 high", estimate.ci90().high(), e.get("ci90").get(1).asDouble(), 1e-9);
    assertClose(what + " p", estimate.p(), e.get("p").asDouble(), 1e-7);
    assertClose(what + " p adjusted", actual.pAdjusted(), e.get("p_adjusted").asDouble(), 1e-7);
  }

  private static void assertNullablesClose(String what, List<Double> actual, JsonNode expected) {
    assertThat(actual).as(what).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertNullableClose(what + " " + i, actual.get(i), expected.get(i), 1e-12);
    }
  }

  private static void assertNullableClose(String what, Double actual, JsonNode expected, double relative) {
    if (expected == null || expected.isNull()) {
      assertThat(actual).as(what).isNull();
    } else {
      assertThat(actual).as(what).isNotNull();
      assertClose(what, actual, expected.asDouble(), relative);
    }
  }

  private static Double nullable(JsonNode node) {
    return node == null || node.isNull() ? null : node.asDouble();
  }

  private static List<String> texts(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  private static List<Double> doubles(JsonNode array) {
    List<Double> values = new ArrayList<>();
    array.forEach(v -> values.add(v.isNull() ? null : v.asDouble()));
    return values;
  }
}
