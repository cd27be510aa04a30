package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.testing.BrowserPage;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.Json;
import dev.benchlake.core.testing.Golden;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A trend of the mytools study's step names across PostgreSQL 14–17, three runs each: the five
 * groups, a change point (update-index loses 15 % at 16; hot-points doubles at 17, which with four
 * versions of three runs lies at the edge of what the change-point test can resolve at 0.01),
 * golden trend.json and trend.md, and trend.html in a browser with its change-point markers.
 */
class MytoolsTrendTest {
  /** Step → its level at 14, 15, 16, 17 (qps). */
  private static final Map<String, double[]> LEVELS = levels();

  private static Map<String, double[]> levels() {
    Map<String, double[]> levels = new LinkedHashMap<>();
    levels.put("point-query.pre_range=100", new double[] {21000, 21000, 21000, 21000});
    levels.put("point-query_range=100", new double[] {21500, 21600, 21500, 21700});
    levels.put("hot-points_range=100", new double[] {3000, 3000, 3000, 6000});
    levels.put("points-covered-si_range=100", new double[] {4200, 4300, 4250, 4300});
    levels.put("random-points_range=10", new double[] {9000, 9100, 9050, 9100});
    levels.put("random-points_range=1000", new double[] {420, 425, 430, 428});
    levels.put("range-covered-pk_range=100", new double[] {5200, 5100, 5150, 5200});
    levels.put("scan_range=100", new double[] {1.1e7, 1.1e7, 1.12e7, 1.1e7});
    levels.put("read-only-simple_range=1000", new double[] {2600, 2650, 2600, 2620});
    levels.put("read-only_range=10000", new double[] {210, 212, 215, 213});
    levels.put("read-only-sum_range=1000", new double[] {1900, 1880, 1910, 1920});
    levels.put("read-only-count_range=1000", new double[] {2400, 2420, 2410, 2450});
    levels.put("read-write_range=100", new double[] {7100, 7150, 7120, 7200});
    levels.put("update-index_range=100", new double[] {6000, 6050, 5100, 5120});
    levels.put("insert_range=100", new double[] {8000, 8100, 8050, 8000});
    levels.put("delete_range=100", new double[] {9000, 9050, 9100, 9000});
    return levels;
  }

  static TrendReport report() {
    return report(TrendRequest.DEFAULT_CHANGE_POINT_ALPHA);
  }

  static TrendReport report(double changePointAlpha) {
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(1416);
    String[] majors = {"14", "15", "16", "17"};
    for (int m = 0; m < majors.length; m++) {
      for (int r = 1; r <= 3; r++) {
        String run = "x.pg" + majors[m] + "_o3.cx10a.pk1-r" + r;
        runs.computeIfAbsent(majors[m], v -> new ArrayList<>()).add(run);
        for (Map.Entry<String, double[]> step : LEVELS.entrySet()) {
          double qps = step.getValue()[m] * Math.exp(0.015 * random.nextGaussian());
          observations.add(new Observation(run, majors[m], step.getKey(), qps));
        }
      }
    }
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "14", "qps")
        .withChangePointAlpha(changePointAlpha), List.of());
  }

  @Test
  void theStudysFiveGroupsAndItsChangePointsMatchTheGoldenFiles() throws Exception {
    TrendReport report = report();
    Golden.check(MytoolsTrendTest.class, "mytools.trend.json", TrendJson.write(report));
    Golden.check(MytoolsTrendTest.class, "mytools.trend.md", TrendMarkdown.write(report));
    Golden.failIfUpdated("mytools");

    assertThat(report.groups()).extracting(GroupTrend::group).containsExactly(StepGroups.POINT_1, StepGroups.POINT_2,
        StepGroups.RANGE_1, StepGroups.RANGE_2, StepGroups.WRITES);
    assertThat(groupOf(report, "point-query.pre_range=100")).isEqualTo(StepGroups.POINT_1);
    assertThat(groupOf(report, "random-points_range=1000")).isEqualTo(StepGroups.POINT_2);
    assertThat(groupOf(report, "read-only-simple_range=1000")).isEqualTo(StepGroups.RANGE_1);
    assertThat(groupOf(report, "read-only_range=10000")).isEqualTo(StepGroups.RANGE_2);
    assertThat(groupOf(report, "read-write_range=100")).isEqualTo(StepGroups.WRITES);

    assertThat(step(report, "update-index_range=100").changePoints()).singleElement()
        .satisfies(c -> assertThat(c.at()).isEqualTo("16"));
    // A doubling at the last of four versions of three runs: the best split is then 9 runs against 3,
    // and the exact permutation p of even a perfect separation is 2/C(12,3) ≈ 0.009 (numpy, all
    // 369,600 orderings), so the 999 permutations' estimate, whose mean is ≈ 0.010, misses 0.01.
    // The comparison of 16 with 17 calls it; at --change-point-alpha 0.05 it is a change point too.
    assertThat(step(report, "hot-points_range=100").changePoints()).isEmpty();
    assertThat(report.flags()).anyMatch(f -> f.step().equals("hot-points_range=100") && f.to().equals("17"));
    assertThat(step(report(0.05), "hot-points_range=100").changePoints()).singleElement()
        .satisfies(c -> assertThat(c.at()).isEqualTo("17"));
    JsonNode json = Json.mapper().readTree(TrendJson.write(report));
    JsonNode update = java.util.stream.StreamSupport.stream(json.get("steps").spliterator(), false)
        .filter(s -> s.get("step").asText().equals("update-index_range=100")).findFirst().orElseThrow();
    assertThat(fields(update.get("change_points").get(0))).containsExactly("at", "before", "after", "ratio", "p");
    assertThat(TrendMarkdown.write(report)).contains("## Change points").contains("`update-index_range=100` | 16 |");
  }

  @Test
  @Tag("integration")
  void trendHtmlDrawsOneChartPerGroupWithTheChangePointsMarked() throws Exception {
    // At 0.05, change points in two groups' charts (at the default only update-index's).
    TrendReport report = report(0.05);
    Path out = Path.of("target", "reports", "trend-mytools");
    TrendFiles.write(report, new Provenance("benchlake trend --by db_major --base 14", "warehouse", 1, "test"), out);
    BrowserPage page = BrowserPage.render(out.resolve(TrendFiles.HTML), "trend-mytools", 1366, 4200);
    page.assertRenderedCleanly(1 + report.groups().size());
    String markup = page.markup();
    // Two change points, each a dashed rule and a label in its group's chart.
    assertThat(report.steps().stream().mapToInt(s -> s.changePoints().size()).sum()).isEqualTo(2);
    assertThat(markup).contains("axis not at 0").contains(">▼ −14.8%<").contains(">▲ +98.4%<");
    assertThat(BrowserPage.countOf(markup, "data-change-points=\"1\"")).as("point query 1, writes").isEqualTo(2);
    assertThat(BrowserPage.countOf(markup, "class=\"mark-rule role-mark change_points_marks\"")).isEqualTo(2);
    assertThat(markup).contains("<table class=\"numbers change-points\">");
  }

  private static String groupOf(TrendReport report, String step) {
    return step(report, step).group();
  }

  private static StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  private static List<String> fields(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
