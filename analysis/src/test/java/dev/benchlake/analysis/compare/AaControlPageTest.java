package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The a/a control's own page makes one call, the control's verdict that leads it; its per-step table
 * is descriptive, intervals and readings alike (issue 49: three pages, three stories).
 */
class AaControlPageTest {
  private static ComparisonReport comparison() {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("insert", Sides.of(new double[] {0.0010, 0.0011, 0.0012, 0.0010, 0.0011, 0.0010},
        new double[] {0.0011, 0.0010, 0.0012, 0.0011, 0.0010, 0.0011}));
    steps.put("point-select", Sides.of(new double[] {0.0020, 0.0021, 0.0020, 0.0022, 0.0021, 0.0020},
        new double[] {0.0021, 0.0020, 0.0021, 0.0021, 0.0022, 0.0020}));
    return FigureReports.of(StatisticsSettings.DEFAULTS, steps, true);
  }

  @Test
  void theControlsPerStepTableIsDescriptiveAndAComparisonsKeepsItsCalls() {
    ComparisonReport comparison = comparison();
    AaControl control = AaControl.of(comparison, StatisticsSettings.DEFAULTS);
    assertThat(control).as("a control from 6 rounds").isNotNull();
    ComparisonReport own = comparison.asControlItself(control);

    String header = CompareMarkdown.summaryTable(own).lines().findFirst().orElseThrow();
    assertThat(header).isEqualTo("| step | change (θ) | 95% interval, descriptive | reads (descriptive, not a call) | runs "
        + "| pairs needed |");
    assertThat(CompareMarkdown.summaryTable(own)).as("no step's reading set as a call").doesNotContain("**");
    String html = CompareHtml.write(own, new Provenance("benchlake compare", "wh", 0, "test"));
    assertThat(html).contains("<th>95% interval, descriptive</th><th>reads (descriptive, not a call)</th>");

    assertThat(CompareMarkdown.summaryTable(comparison).lines().findFirst().orElseThrow())
        .isEqualTo("| step | change (θ) | 95% interval | verdict | runs | pairs needed |");
    assertThat(CompareMarkdown.summaryTable(comparison)).contains("| **");
    assertThat(CompareHtml.write(comparison, new Provenance("benchlake compare", "wh", 0, "test")))
        .contains("<th>95% interval</th><th>verdict</th>");
  }
}
