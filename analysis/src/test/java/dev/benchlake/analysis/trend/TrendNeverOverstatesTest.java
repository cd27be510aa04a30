package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What trend.md and trend.html say must not claim more than the figures beside them (issue 26 item 5). */
class TrendNeverOverstatesTest {
  private final List<Observation> observations = new ArrayList<>();
  private final Map<String, List<String>> runs = new TreeMap<>();

  /** Six runs at 11 and at 12: a change of about 3 % (p = 0.032 alone, its 95 % interval excludes 1). */
  private void threePercentAndANoisyStep() {
    double[] z = {-1.2, -0.6, -0.2, 0.2, 0.6, 1.2};
    double[] w = {0.3, -0.3, 0.1, -0.1, 0.2, -0.2};
    double[] noise = {0.4, -0.5, 0.3, 0.1, -0.2, 0.6};
    for (int i = 0; i < 6; i++) {
      double base = 1000 * Math.exp(0.025 * z[i]);
      add("11", i, "point-read", base);
      add("12", i, "point-read", base * Math.exp(0.03 + 0.025 * w[i]));
      add("11", i, "range-scan", base);
      add("12", i, "range-scan", base * Math.exp(0.3 * noise[i]));
    }
  }

  private void add(String version, int run, String step, double qps) {
    String id = version + "-" + (run + 1);
    observations.add(new Observation(id, version, step, qps));
    List<String> ids = runs.computeIfAbsent(version, v -> new ArrayList<>());
    if (!ids.contains(id)) {
      ids.add(id);
    }
  }

  /** The first runs of {@code version}, one figure each. */
  private void runs(String version, String step, double... qps) {
    for (int r = 0; r < qps.length; r++) {
      add(version, r, step, qps[r]);
    }
  }

  private TrendReport analyse() {
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps"), List.of());
  }

  private static StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aCallTheCorrectionHeldBackIsMarkedAndSaysWhy() {
    threePercentAndANoisyStep();
    TrendReport report = analyse();
    TrendReport.VersionFigure read = step(report, "point-read").at("12");
    assertThat(read.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(read.ci95().low()).as("the interval shown excludes 1").isGreaterThan(1);
    String md = TrendMarkdown.write(report);
    assertThat(md).contains("| `point-read` | 1000/s | 1.030 [1.003, 1.058] inconclusive¹ (needs 16 runs) |")
        .contains("¹ The 95% interval excludes 1, but not after Holm's correction over 2 tests.");
    assertThat(TrendHtml.view(report, null).sections()).anySatisfy(s -> assertThat(s.notes())
        .containsExactly("¹ The 95% interval excludes 1, but not after Holm's correction over 2 tests."));
  }

  @Test
  void aRatioWhoseIntervalSpansMoreThanAFactorOfTwoIsTooNoisyToSay() {
    threePercentAndANoisyStep();
    runs("11", "wild-update", 500, 900);
    runs("12", "wild-update", 400, 1300);
    TrendReport report = analyse();
    assertThat(step(report, "wild-update").at("12").ci95().tooNoisyToSay()).isTrue();
    String md = TrendMarkdown.write(report);
    assertThat(md).contains("| `wild-update` ≈ | 670.8/s | too noisy to say [0.018, 63.823] inconclusive"
        + " (needs 2861 runs) |").doesNotContain("1.075 [");
    assertThat(md).contains("| writes | 1.000 (1) | too noisy to say [");
    assertThat(TrendHtml.view(report, null).sections()).anySatisfy(s -> assertThat(s.rows()).anySatisfy(row ->
        assertThat(row.cells().get(1).text()).startsWith("too noisy to say [")));
  }

  @Test
  void tableHealthCountsOnlyTheRunsThatHaveTheStep() {
    threePercentAndANoisyStep();
    for (int r = 0; r < 3; r++) {
      add("11", r, "update-index", 500 + r);
      add("12", r + 2, "update-index", 510 + r);
    }
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps"), List.of(),
        new TableHealthConfounders(Map.of(), TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD));
    assertThat(step(report, "update-index").at("12").confounders()).singleElement().satisfies(c -> assertThat(c.detail())
        .isEqualTo("table health not recorded for all 3 runs of 11 and all 3 runs of 12."));
    assertThat(step(report, "point-read").at("12").confounders()).singleElement().satisfies(c -> assertThat(c.detail())
        .isEqualTo("table health not recorded for all 6 runs of 11 and all 6 runs of 12."));
  }

  @Test
  void anInconclusiveFigureIsNeverColouredAsAGainOrALoss() {
    threePercentAndANoisyStep();
    // +60 % on two runs a side: far beyond the margin, and inconclusive.
    runs("11", "wild-update", 1000, 1400);
    runs("12", "wild-update", 1500, 2300);
    runs("11", "steady-select", 1000, 1001, 999);
    runs("12", "steady-select", 1300, 1301, 1299);
    TrendReport report = analyse();
    assertThat(step(report, "wild-update").at("12").verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(step(report, "wild-update").at("12").relative()).isGreaterThan(1.5);
    TrendHtml.View view = TrendHtml.view(report, null);
    assertThat(cell(view, "wild-update").css()).isEqualTo("undecided");
    assertThat(cell(view, "point-read").css()).as("inconclusive after Holm").isEqualTo("undecided");
    assertThat(cell(view, "steady-select").css()).as("a faster call").isEqualTo("better");
    // The writes' geometric mean (+60 %, its interval reaching below 1) has no call and is no gain either.
    assertThat(view.groups()).filteredOn(g -> g.group().equals(StepGroups.WRITES)).singleElement()
        .satisfies(g -> assertThat(g.cells().get(1).css()).isEqualTo("undecided"));
  }

  @Test
  void theHeadlineLeadsWithTheCalls() {
    threePercentAndANoisyStep();
    TrendReport report = analyse();
    String calls = "Calls against 11: 2 inconclusive (2 step and version calls, holm); between consecutive versions:"
        + " 2 inconclusive.";
    assertThat(TrendHtml.lead(report)).startsWith(calls + " At db_major 12, against 11: point query +3.0%");
    assertThat(TrendMarkdown.summary(report)).startsWith(calls + "\n\n## Groups");
    assertThat(TrendMarkdown.write(report)).contains("\n\n" + calls + "\n\n## Groups");
  }

  /**
   * {@code --correction none} (issue 26 item 6): each call is made as it would be alone, and over
   * more than one test the report says first, in every format, how many false calls to expect.
   */
  @Test
  void withoutACorrectionEachCallIsMadeAsAloneAndTheReportWarns() {
    threePercentAndANoisyStep();
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps")
        .withSettings(StatisticsSettings.DEFAULTS.withCorrection(Correction.NONE)), List.of());
    assertThat(step(report, "point-read").at("12").verdict()).as("held back by Holm, called without it")
        .isEqualTo(Verdict.FASTER);
    String warning = "Uncorrected (--correction none) over 4 calls (2 against 11, 2 between consecutive versions):"
        + " expect about α·N = 0.2 false calls where nothing changed; none is meant for a single pre-registered step"
        + " or family.";
    assertThat(report.warnings()).containsExactly(warning);
    assertThat(TrendMarkdown.summary(report)).as("what trend prints").contains(".\n\n> ⚠ " + warning + "\n\n## Groups");
    assertThat(TrendMarkdown.write(report)).contains("> ⚠ " + warning + "\n\n## Groups");
    assertThat(TrendJson.tree(report).get("warnings").get(0).asText()).isEqualTo(warning);
    assertThat(TrendJson.tree(report).get("correction").asText()).isEqualTo("none");
    assertThat(TrendHtml.view(report, null).warnings()).containsExactly("⚠ " + warning);
    String html = TrendHtml.write(report, new Provenance("benchlake trend", "wh", 1, "test"));
    assertThat(html.contains("<li>⚠ " + warning.replace("=", "&#x3D;") + "</li>")).as("trend.html lists the warning").isTrue();
    assertThat(report.methods()).anySatisfy(m -> assertThat(m).contains("each a family whose p-values are not"
        + " adjusted (none: for a single pre-registered step or family)"));
    assertThat(analyse().warnings()).as("holm").isEmpty();
  }

  private static TrendHtml.Cell cell(TrendHtml.View view, String step) {
    return view.sections().stream().flatMap(s -> s.rows().stream()).filter(r -> r.step().equals(step)).findFirst()
        .orElseThrow().cells().get(1);
  }
}
