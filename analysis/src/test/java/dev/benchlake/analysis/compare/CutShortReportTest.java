package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.core.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A study cut short says so at the top of each of its comparison's pages, and nowhere else does. */
class CutShortReportTest {
  private static final CutShort CUT = new CutShort(2, 5, false, "side b (r3-b on CPUs 1) was killed (signal 9)");

  private static ComparisonReport report() {
    return FigureReports.of(StatisticsSettings.DEFAULTS, Map.of("point-select",
        Sides.of(new double[] {0.0010, 0.0011}, new double[] {0.0010, 0.0012})), true);
  }

  @Test
  void everyPageLeadsWithIt() throws Exception {
    ComparisonReport cut = report().withCutShort(CUT);
    assertThat(cut.headline()).startsWith(CUT.sentence() + " Calls: ");
    String md = CompareMarkdown.write(cut);
    assertThat(md.lines().skip(2).findFirst().orElseThrow()).startsWith("Cut short after round 2 of 5: side b");
    JsonNode json = Json.mapper().readTree(CompareJson.write(cut));
    assertThat(json.get("cut_short").get("after_round").asInt()).isEqualTo(2);
    assertThat(json.get("cut_short").get("sentence").asText()).isEqualTo(CUT.sentence());
    String html = CompareHtml.write(cut, new Provenance("benchlake compare", "wh", 0, "test"));
    assertThat(html).contains("Cut short after round 2 of 5: side b (r3-b on CPUs 1) was killed (signal 9).");

    ComparisonReport whole = report();
    assertThat(whole.headline()).startsWith("Calls: ");
    assertThat(CompareJson.write(whole)).doesNotContain("cut_short");
  }
}
