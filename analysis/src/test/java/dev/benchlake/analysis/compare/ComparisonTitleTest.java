package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 49's smaller points: a compare page's title from its labels, not its raw selectors; an
 * interval's level explained where it is not 95 %; a paired design's "pairs needed".
 */
class ComparisonTitleTest {
  @Test
  void theTitleNamesWhatDiffersOnceAndLeavesOutWhatBothSidesShare() {
    assertThat(ComparisonTitle.of(Sides.of("db_major=14,control!=aa", "db_major=17,control!=aa")).text())
        .isEqualTo("PostgreSQL 17 against 14");
    assertThat(ComparisonTitle.of(Sides.of("study_id=s1,control=aa,side=a", "study_id=s1,control=aa,side=b")).text())
        .isEqualTo("side b against a");
    assertThat(ComparisonTitle.of(Sides.of("db_major=14,os=linux", "db_major=16,os=windows")).text())
        .isEqualTo("PostgreSQL 16, os windows against PostgreSQL 14, os linux");
    assertThat(ComparisonTitle.of(Sides.of("os=linux", "os!=linux")).text()).isEqualTo("os not linux against os linux");
    // Nothing differs, or not key=value terms: the selectors are their own title.
    assertThat(ComparisonTitle.of(Sides.of("os=linux", "os=linux")).text()).isEqualTo("os=linux against os=linux");
    assertThat(ComparisonTitle.of(Sides.of("", "os=linux")).text()).isEqualTo("os=linux against ");
  }

  @Test
  void aTitleOfWordsReadsAsWordsAndAnyOtherIsShownAsCode() {
    assertThat(CompareMarkdown.heading("PostgreSQL 17 against 14")).isEqualTo("PostgreSQL 17 against 14");
    assertThat(CompareMarkdown.heading("a/a control: side b against a")).isEqualTo("a/a control: side b against a");
    // A label's markup never reaches the heading, not even escaped (HostileStringsTest's rule for every label).
    assertThat(CompareMarkdown.heading("grp <script>x</script> against b")).isEqualTo("`grp <script>x</script> against b`");
    assertThat(CompareMarkdown.heading("grp `a` against *b*")).isEqualTo("``grp `a` against *b*``");
  }

  @Test
  void thePagesTitleIsTheLabelsAndTheSelectorsStayBesideIt() {
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, steps());
    assertThat(CompareMarkdown.write(report)).startsWith("# benchlake compare: grp c against b\n\n");
    String page = CompareHtml.write(report, new Provenance("benchlake compare", "wh", 1, "test"));
    assertThat(page).contains("<title>grp c against b · benchlake</title>")
        .contains("<span class=\"who candidate\">grp c</span> <span class=\"vs\">against</span>"
            + " <span class=\"who baseline\">b</span>")
        .contains("candidate <code>grp&#x3D;c</code>");
  }

  @Test
  void anIntervalNotAt95PercentSaysWhyAndAPairedDesignCountsPairs() {
    ComparisonReport look = FigureReports.of(StatisticsSettings.DEFAULTS.withAlpha(0.041), steps(), true)
        .withSequentialStop(new SequentialStop("Haybittle-Peto", "3 looks", 3, 3, false));
    String note = "The intervals are at the level of the calls: 1 − α = 95.9% for faster or slower, 1 − 2α = 91.8%"
        + " for equivalent (TOST), with α = 0.041, this look's share of the study's α (Haybittle-Peto), so that its"
        + " looks together keep the study's error rates.";
    assertThat(CompareMarkdown.levelNote(look)).isEqualTo(note);
    assertThat(CompareMarkdown.summaryTable(look))
        .startsWith("| step | change (θ) | 95.9% interval¹ | verdict | runs | pairs needed |")
        .endsWith("\n¹ " + note + "\n");
    String page = CompareHtml.write(look, new Provenance("benchlake compare", "wh", 1, "test"));
    assertThat(page).contains("<th title=\"").contains(">95.9% interval¹</th>")
        .contains("<p class=\"note level-note\">¹ The intervals are at the level of the calls")
        .contains("<th>pairs needed</th>").doesNotContain("runs needed");

    // At 95 %, unpaired: as before, nothing to explain.
    ComparisonReport plain = FigureReports.of(StatisticsSettings.DEFAULTS, steps());
    assertThat(CompareMarkdown.levelNote(plain)).isNull();
    assertThat(CompareMarkdown.summaryTable(plain))
        .startsWith("| step | change (θ) | 95% interval | verdict | runs | runs needed |").doesNotContain("¹");
    assertThat(CompareHtml.write(plain, new Provenance("benchlake compare", "wh", 1, "test")))
        .doesNotContain("level-note").contains("<th>runs needed</th>");
  }

  private static Map<String, Sides<double[]>> steps() {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", Sides.of(ReportsNeverOverstateTest.BASE, ReportsNeverOverstateTest.THREE_PERCENT));
    return steps;
  }
}
