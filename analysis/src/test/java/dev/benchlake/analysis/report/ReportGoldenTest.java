package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.OutlierPolicy;
import dev.benchlake.core.testing.Golden;
import dev.benchlake.analysis.testing.ReferenceCases;
import dev.benchlake.core.Json;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Golden files seal report.json and report.md byte for byte. After an intended change of the
 * format, regenerate them with {@code -Dbenchlake.golden.update=true} and review the diff.
 */
@org.junit.jupiter.api.Tag("integration")
class ReportGoldenTest extends SparkTestBase {
  private static final java.util.Map<String, ComparisonReport> REPORTS = new java.util.HashMap<>();

  private static ComparisonReport report(String caseName) {
    return REPORTS.computeIfAbsent(caseName, ReportGoldenTest::compare);
  }

  private static ComparisonReport compare(String caseName) {
    ReferenceCases.Case c = ReferenceCases.named(caseName);
    CompareRequest request = CompareRequest.of("os=linux", "os=windows")
        .withOutliers(OutlierPolicy.parse(c.settings().get("outliers").asText()))
        .withThresholdNs(c.settings().get("threshold_ns").isNull() ? null : c.settings().get("threshold_ns").asLong());
    return Compare.run(ReferenceCases.warehouse(spark, c), request);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"two_steps", "edges"})
  void reportJsonAndMarkdownMatchTheGoldenFiles(String caseName) throws IOException {
    ComparisonReport report = report(caseName);
    String json = ReportJson.write(report);
    String markdown = ReportMarkdown.write(report);
    Golden.check(ReportGoldenTest.class, caseName + ".report.json", json);
    Golden.check(ReportGoldenTest.class, caseName + ".report.md", markdown);
    Golden.failIfUpdated(caseName);
    assertThat(markdown).contains(ReportMarkdown.summaryTable(report));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"two_steps", "edges"})
  void jsonHasTheShapeOfTheIssue(String caseName) throws IOException {
    JsonNode root = Json.mapper().readTree(ReportJson.write(report(caseName)));
    assertThat(fields(root)).startsWith("baseline", "candidate", "alpha", "margin", "outliers");
    assertThat(fields(root.get("baseline"))).containsExactly("selector", "runs");
    for (JsonNode step : root.get("steps")) {
      assertThat(fields(step)).startsWith("step", "baseline", "candidate", "tests", "run_level", "verdict", "explanation");
      assertThat(fields(step.get("baseline"))).containsExactly("runs", "tasks", "ok", "errors", "errors_by_code", "min_s",
          "p50_s", "p90_s", "p95_s", "p99_s", "p999_s", "max_s", "mean_s", "stddev_s", "under_threshold", "outliers_removed");
      assertThat(fields(step.get("tests"))).startsWith("mann_whitney_u", "mann_whitney_p", "welch_t", "welch_df", "welch_p",
          "ks_d", "ks_p", "fisher_errors_p", "hl_shift_s", "hl_ci95_s", "cliffs_delta", "cliffs_magnitude", "median_ratio",
          "median_ratio_ci95", "p_adjusted");
      assertThat(fields(step.get("run_level"))).startsWith("baseline_medians_s", "candidate_medians_s", "p", "enough_runs",
          "runs_needed");
      assertThat(step.get("verdict").asText()).isIn("faster", "slower", "no_significant_difference",
          "significant_but_negligible", "inconclusive");
      assertThat(step.get("baseline").get("ok").isIntegralNumber()).isTrue();
    }
  }

  private static List<String> fields(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
