package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
class CompareGoldenTest extends SparkTestBase {
  private static final java.util.Map<String, ComparisonReport> REPORTS = new java.util.HashMap<>();

  private static ComparisonReport report(String caseName) {
    return REPORTS.computeIfAbsent(caseName, CompareGoldenTest::compare);
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
    String json = CompareJson.write(report);
    String markdown = CompareMarkdown.write(report);
    Golden.check(CompareGoldenTest.class, caseName + ".report.json", json);
    Golden.check(CompareGoldenTest.class, caseName + ".report.md", markdown);
    Golden.failIfUpdated(caseName);
    assertThat(markdown).contains(CompareMarkdown.summaryTable(report));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"two_steps", "edges"})
  void jsonHasTheShapeOfTheIssue(String caseName) throws IOException {
    JsonNode root = Json.mapper().readTree(CompareJson.write(report(caseName)));
    assertThat(fields(root)).startsWith("format_version", "baseline", "candidate", "alpha", "margin", "outliers");
    assertThat(root.get("format_version").asInt()).isEqualTo(2);
    assertThat(fields(root.get("baseline"))).containsExactly("selector", "runs");
    for (JsonNode step : root.get("steps")) {
      assertThat(fields(step)).startsWith("step", "baseline", "candidate", "verdict", "explanation", "run_level",
          "run_level_families", "runs", "within_run_tests");
      assertThat(fields(step.get("baseline"))).startsWith("runs", "tasks", "ok", "errors", "errors_by_code", "min_s",
          "p50_s", "p90_s", "p95_s", "p99_s", "p999_s", "max_s", "mean_s", "stddev_s", "under_threshold", "outliers_removed");
      for (JsonNode level : List.of(step.get("run_level"), step.get("run_level_families").get("p99"),
          step.get("run_level_families").get("throughput"))) {
        assertThat(fields(level)).startsWith("metric", "ratio", "ci95", "ci90", "p", "p_adjusted", "between_run_sd_log",
            "within_run_se_log", "runs_needed");
      }
      assertThat(step.get("run_level").get("metric").asText()).isEqualTo("median");
      assertThat(step.get("verdict").asText()).isIn("faster", "slower", "equivalent", "inconclusive");
      assertThat(step.get("baseline").get("ok").isIntegralNumber()).isTrue();
    }
  }

  private static List<String> fields(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
