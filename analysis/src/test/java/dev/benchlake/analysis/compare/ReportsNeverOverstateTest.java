package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What compare's sentences, tables and page say must not claim more than the figures beside them
 * (issue 26 item 5), on reports made from per-run figures alone ({@link FigureReports}).
 */
class ReportsNeverOverstateTest {
  /** Six runs a side: a change of about 3 % (p = 0.032 alone, its 95 % interval excludes 1). */
  static final double[] BASE = scaled(new double[] {-1.2, -0.6, -0.2, 0.2, 0.6, 1.2}, 0.025, 0.001);
  static final double[] THREE_PERCENT = times(scaled(new double[] {-1.2, -0.6, -0.2, 0.2, 0.6, 1.2}, 0.025, 0.001),
      scaled(new double[] {0.3, -0.3, 0.1, -0.1, 0.2, -0.2}, 0.025, Math.exp(0.03)));
  static final double[] NOISY = times(BASE.clone(), scaled(new double[] {0.4, -0.5, 0.3, 0.1, -0.2, 0.6}, 0.3, 1));

  /** The 3 % change and a noisy step: Holm over the two holds the first back. */
  private static Map<String, Sides<double[]>> heldBack() {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", Sides.of(BASE, THREE_PERCENT));
    steps.put("noisy", Sides.of(BASE, NOISY));
    return steps;
  }

  @Test
  void aCallTheCorrectionHeldBackSaysSoBesideItsInterval() {
    Map<String, Sides<double[]>> steps = heldBack();
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, steps);
    StepComparison read = report.steps().get(0);
    assertThat(read.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(read.runLevel().median().estimate().ciDecision().low()).as("the interval shown excludes 1").isGreaterThan(1);
    assertThat(read.explanation()).contains("(6 vs 6 runs): the 95% interval excludes 1, but not after Holm's correction"
        + " over 2 steps (p_adj = 0.064)").doesNotContain("compatible both with no change");
    // Alone, the same step is decided: the correction is what held it back.
    steps.remove("noisy");
    assertThat(FigureReports.of(StatisticsSettings.DEFAULTS, steps).steps().get(0).verdict()).isEqualTo(Verdict.SLOWER);
  }

  @Test
  void aChangeWhoseIntervalSpansMoreThanAFactorOfTwoIsTooNoisyToSay() {
    // Two runs a side half a factor apart: θ ≈ 1.5, its 95 % interval from about 0.1 to 23.
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS,
        Map.of("read", Sides.of(new double[] {0.001, 0.0015}, new double[] {0.0015, 0.0022})));
    StepComparison read = report.steps().get(0);
    assertThat(read.runLevel().median().estimate().tooNoisyToSay()).isTrue();
    assertThat(read.explanation()).startsWith("Inconclusive: per-run median latency too noisy to say (the interval spans"
        + " more than a factor of 2), 95% interval [").doesNotContain("θ =");
    assertThat(CompareMarkdown.summaryTable(report)).contains("| `read` | too noisy to say | [");
    assertThat(CompareMarkdown.write(report)).contains("| median | too noisy to say | [");
    assertThat(CompareHtml.view(report, null).steps().get(0).headline()).isEqualTo("θ too noisy to say");
    assertThat(CompareHtml.lead(report)).contains("read (θ too noisy to say [");
  }

  @Test
  void tableHealthCountsOnlyTheRunsThatHaveTheStep() {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", Sides.of(BASE, THREE_PERCENT));
    // Measured by two of the six baseline runs and three of the candidate's.
    steps.put("setup", Sides.of(new double[] {0.001, 0.0011}, new double[] {0.001, 0.0011, 0.0012}));
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, steps);
    assertThat(report.steps().get(0).tableHealth())
        .isEqualTo("Table health not recorded for all 6 runs of the baseline and all 6 runs of the candidate.");
    assertThat(report.steps().get(1).tableHealth())
        .isEqualTo("Table health not recorded for all 2 runs of the baseline and all 3 runs of the candidate.");
  }

  @Test
  void theHeadlineLeadsWithTheCallsAndThePageSaysWhichSideOfOneIsBetter() {
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, heldBack());
    assertThat(CompareMarkdown.write(report)).startsWith("# benchlake compare: grp c against b\n\nCalls: 2 inconclusive (2 steps).\n\n");
    assertThat(CompareHtml.lead(report)).startsWith("Calls: 2 inconclusive (2 steps). Inconclusive in 2 of 2 steps: read (θ");
    String page = CompareHtml.write(report, new Provenance("benchlake compare", "wh", 1, "test"));
    assertThat(page).contains("<span class=\"card-detail card-direction\">below 1 is better (lower latency)</span>")
        .contains("data-axis-title=\"θ, candidate / baseline (log scale): below 1 is better (lower latency)\"")
        .contains("candidate / baseline: below 1 is better (lower latency); shaded: the margin band");
  }

  /**
   * {@code --correction none} (issue 26 item 6): each step is called as it would be alone, and
   * over more than one step the report says first, in every format, how many false calls to expect.
   */
  @Test
  void withoutACorrectionEachStepIsCalledAsAloneAndTheReportWarns() {
    StatisticsSettings none = StatisticsSettings.DEFAULTS.withCorrection(Correction.NONE);
    ComparisonReport report = FigureReports.of(none, heldBack());
    StepComparison read = report.steps().get(0);
    assertThat(read.verdict()).as("held back by Holm, called without it").isEqualTo(Verdict.SLOWER);
    assertThat(read.runLevel().median().pAdjusted()).isEqualTo(read.runLevel().median().estimate().p());
    assertThat(read.explanation()).doesNotContain("correction");
    String warning = "Uncorrected (--correction none) over 2 steps: expect about α·N = 0.1 false calls where nothing"
        + " changed; none is meant for a single pre-registered step or family.";
    assertThat(report.warnings()).containsExactly(warning);
    assertThat(CompareMarkdown.write(report)).startsWith("# benchlake compare: grp c against b\n\nCalls: 1 slower, 1 inconclusive"
        + " (2 steps).\n\n> ⚠ " + warning + "\n\n");
    assertThat(CompareJson.tree(report).get("warnings").get(0).asText()).isEqualTo(warning);
    assertThat(CompareJson.tree(report).get("correction").asText()).isEqualTo("none");
    String html = CompareHtml.write(report, new Provenance("benchlake compare", "wh", 1, "test"));
    // The templates escape = as &#x3D;.
    assertThat(html.contains("<li>⚠ " + warning.replace("=", "&#x3D;") + "</li>")).as("report.html lists the warning")
        .isTrue();
    assertThat(html.contains("correction across steps: none")).as("report.html's settings name the correction").isTrue();
    assertThat(report.methods()).anySatisfy(m -> assertThat(m).contains("Neither test is adjusted across the steps"
        + " compared (none: for a single pre-registered step or family; alpha = 0.05)"))
        .noneSatisfy(m -> assertThat(m).contains("corrected on its own"));

    // One step: nothing to warn of, and the methods still name the choice.
    ComparisonReport one = FigureReports.of(none, Map.of("read", Sides.of(BASE, THREE_PERCENT)));
    assertThat(one.warnings()).isEmpty();
    assertThat(one.methods()).anySatisfy(m -> assertThat(m).contains("(none: for a single pre-registered step"));
    assertThat(FigureReports.of(StatisticsSettings.DEFAULTS, heldBack()).warnings()).as("holm").isEmpty();
  }

  private static double[] scaled(double[] z, double sd, double level) {
    double[] out = new double[z.length];
    for (int i = 0; i < z.length; i++) {
      out[i] = level * Math.exp(z[i] * sd);
    }
    return out;
  }

  private static double[] times(double[] a, double[] b) {
    for (int i = 0; i < a.length; i++) {
      a[i] *= b[i];
    }
    return a;
  }
}
