package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.HuberLogRatio;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.RunsNeeded;
import dev.benchlake.analysis.stats.SampleDesign;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.core.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A duet's runs through compare's pure half ({@link FigureReports}, {@link Compare#report}): the
 * paired analysis is chosen from the runs' labels, decides on the paired θ, and says so in every
 * writer; a step with fewer than two complete pairs is undecidable, never a verdict (issue 28 item 3).
 */
class PairedComparisonTest {
  /** The machine's swing per round: ±35 %, shared by both runs of a round. */
  private static final double[] ROUND = {1.0, 1.35, 0.7, 1.2, 0.8, 1.1};
  /** What is left of a pair's ratio after the round cancels: ±1 %. */
  private static final double[] PAIR_NOISE = {0.01, -0.008, 0.004, -0.01, 0.006, -0.002};

  /** Baseline runs at 1 ms × the round; the candidate {@code factor} × that, with a little noise per pair. */
  private static Sides<double[]> duet(double factor, int candidateRounds) {
    double[] baseline = new double[ROUND.length];
    double[] candidate = new double[candidateRounds];
    for (int i = 0; i < ROUND.length; i++) {
      baseline[i] = 0.001 * ROUND[i];
      if (i < candidateRounds) {
        candidate[i] = baseline[i] * factor * Math.exp(PAIR_NOISE[i]);
      }
    }
    return Sides.of(baseline, candidate);
  }

  private static Map<String, Sides<double[]>> steps() {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", duet(1.08, 6));
    steps.put("same", duet(1.0, 6));
    steps.put("lonely", duet(1.3, 1));
    return steps;
  }

  @Test
  void duetRunsAreAnalysedInPairsAndTheRoundsSwingCancels() {
    ComparisonReport paired = FigureReports.of(StatisticsSettings.DEFAULTS, steps(), true);
    ComparisonReport unpaired = FigureReports.of(StatisticsSettings.DEFAULTS, steps(), false);
    assertThat(paired.design()).isEqualTo("duet");
    assertThat(unpaired.design()).isEqualTo("unpaired");

    RunLevelEffect read = paired.steps().get(0).runLevel().median();
    assertThat(read.analysis()).isEqualTo("paired");
    assertThat(read.pairs().size()).isEqualTo(6);
    Sides<double[]> figures = duet(1.08, 6);
    HuberLogRatio expected = HuberLogRatio.of(PairedLogRatio.logRatios(figures.baseline(), figures.candidate()), null);
    // The number shown is the number decided on: the paired θ and its 1 − α interval.
    assertThat(read.estimate().ratio()).isCloseTo(expected.ratio(), within(1e-12));
    assertThat(read.estimate().ciDecision().low()).isCloseTo(expected.interval(0.95).low(), within(1e-12));
    assertThat(paired.steps().get(0).verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(paired.steps().get(1).verdict()).isEqualTo(Verdict.EQUIVALENT);

    RunLevelEffect readUnpaired = unpaired.steps().get(0).runLevel().median();
    assertThat(readUnpaired.analysis()).isEqualTo("unpaired");
    assertThat(readUnpaired.pairs()).isNull();
    assertThat(unpaired.steps().get(0).verdict()).as("the rounds' swing drowns 8 % unpaired")
        .isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(halfWidth(read.estimate())).as("paired against unpaired 95% half-width")
        .isLessThan(halfWidth(readUnpaired.estimate()) / 10);
  }

  @Test
  void fewerThanTwoCompletePairsIsUndecidableAndTheRunsLeftAloneAreListed() {
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, steps(), true);
    StepComparison lonely = report.steps().get(2);
    RunLevelEffect median = lonely.runLevel().median();
    assertThat(lonely.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(median.decision()).as("no verdict is drawn").isNull();
    assertThat(median.estimate().ratio()).isNull();
    // The candidate has a single run here: that reason comes first; one pair of two runs a side also fails.
    assertThat(lonely.explanation()).startsWith("Inconclusive: ");
    assertThat(median.pairs().dropped()).extracting(d -> d.runId()).containsExactly("b2", "b3", "b4", "b5", "b6");
    assertThat(lonely.runLevel().pairsSentence()).contains("Dropped for want of a partner: b2 (baseline, round=2): no"
        + " candidate run with a figure has round=2");

    Map<String, Sides<double[]>> two = new LinkedHashMap<>();
    two.put("read", duet(1.08, 6));
    // Two runs a side but rounds 1 and 2 against 5 and 6: no complete pair, though Welch would have a go.
    two.put("apart", Sides.of(new double[] {0.001, 0.0012, Double.NaN, Double.NaN, Double.NaN, Double.NaN},
        new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0.0011, 0.0013}));
    StepComparison apart = FigureReports.of(StatisticsSettings.DEFAULTS, two, true).steps().get(1);
    assertThat(apart.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(apart.runLevel().median().decision()).isNull();
    assertThat(apart.explanation()).contains("no run has a partner of the same key on the other side (4 runs dropped"
        + " for want of a partner): the paired analysis needs at least 2 complete pairs");
    assertThat(apart.runLevel().counts()).isEqualTo("0 pairs");
  }

  @Test
  void everyWriterSaysWhichAnalysisWhyAndListsTheDroppedRuns() throws Exception {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", duet(1.08, 5));
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, steps, true);
    JsonNode json = Json.mapper().readTree(CompareJson.write(report));
    assertThat(json.get("design").asText()).isEqualTo("duet");
    JsonNode runLevel = json.get("steps").get(0).get("run_level");
    assertThat(runLevel.get("analysis").asText()).isEqualTo("paired");
    assertThat(runLevel.get("pairs").get("count").asInt()).isEqualTo(5);
    assertThat(runLevel.get("pairs").get("pairs").get(0).get("key").asText()).isEqualTo("round=1");
    assertThat(runLevel.get("pairs").get("dropped")).singleElement().satisfies(d -> {
      assertThat(d.get("run_id").asText()).isEqualTo("b6");
      assertThat(d.get("side").asText()).isEqualTo("baseline");
      assertThat(d.get("key").asText()).isEqualTo("round=6");
    });
    assertThat(json.get("steps").get(0).get("run_level_families").get("throughput").get("analysis").asText())
        .isEqualTo("paired");
    assertThat(json.get("methods").toString()).contains("Analysis: paired (design duet): every run carries"
        + " design=duet", "Huber M-estimate");

    String markdown = CompareMarkdown.write(report);
    assertThat(markdown).contains("θ is the paired θ (design duet)", "Run level, paired (", "5 pairs",
        "Dropped for want of a partner: b6 (baseline, round=6)", "- Analysis: paired (design duet)");
    assertThat(CompareMarkdown.summaryTable(report)).contains("| 5 pairs |");
    assertThat(report.steps().get(0).explanation()).contains("paired per-run median latency", "5 pairs)");
    CompareHtml.View view = CompareHtml.view(report, null);
    assertThat(view.steps().get(0).headline()).startsWith("paired θ ");
    assertThat(view.steps().get(0).pairs()).contains("Dropped for want of a partner: b6");
    assertThat(view.thetaCaption()).startsWith("paired θ (design duet)");

    ComparisonReport unpaired = FigureReports.of(StatisticsSettings.DEFAULTS, steps, false);
    assertThat(CompareJson.write(unpaired)).contains("\"design\": \"unpaired\"", "\"analysis\": \"unpaired\"",
        "\"pairs\": null");

    // Issue 46 item 7: beside a paired result no two-stage bootstrap, which resamples each side's
    // runs on their own (an unpaired interval); unpaired, it stays.
    assertThat(report.methods()).anyMatch(m -> m.startsWith("No two-stage bootstrap beside a paired result"))
        .noneMatch(m -> m.startsWith("Two-stage bootstrap"));
    assertThat(unpaired.methods()).anyMatch(m -> m.startsWith("Two-stage bootstrap of the p50 and p99 ratios"))
        .noneMatch(m -> m.startsWith("No two-stage bootstrap"));
    // And p99 and throughput are labelled descriptive: only the medians' verdicts spend alpha.
    assertThat(markdown).contains("| p99 (descriptive) |", "| throughput (descriptive) |", "| median |",
        "only the medians' verdicts are calls and spend alpha");
    assertThat(runLevel.get("descriptive").asBoolean()).isFalse();
    assertThat(json.get("steps").get(0).get("run_level_families").get("p99").get("descriptive").asBoolean()).isTrue();
    assertThat(view.steps().get(0).families()).extracting(CompareHtml.FamilyRow::metric)
        .containsExactly("median", "p99 (descriptive)", "throughput (descriptive)");
    assertThat(CompareMarkdown.write(unpaired)).contains("- Analysis: unpaired (design unpaired): the runs were not"
        + " all measured in a duet").doesNotContain("paired θ", "Dropped");
  }

  @Test
  void anUndecidedPairedStepAsksForPairsFromTheOneSampleTsPower() {
    // Pairs that differ by ±4 %: 3 pairs do not decide a 2 % change.
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", Sides.of(new double[] {0.001, 0.0013, 0.0008},
        new double[] {0.001 * 1.06, 0.0013 * 0.98, 0.0008 * 1.02}));
    StatisticsSettings single = StatisticsSettings.DEFAULTS;
    RunLevelEffect read = FigureReports.of(single, steps, true).steps().get(0).runLevel().median();
    assertThat(read.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    HuberLogRatio effect = HuberLogRatio.of(PairedLogRatio.logRatios(steps.get("read").baseline(),
        steps.get("read").candidate()), null);
    assertThat(read.runsNeeded()).isEqualTo(RunsNeeded.advise(SampleDesign.PAIRED, effect.betweenRunSdLog(),
        effect.meanLogDifference(), 3, 0.05, 0.05, 0.8).runs());
    assertThat(FigureReports.of(single, steps, true).steps().get(0).explanation()).contains("pairs would decide it",
        "the observed SD of the per-pair log ratios");
  }

  @Test
  void aDuetThatSwapsCpuSetsIsDecidedWithTheSetFittedAndSaysSo() throws Exception {
    // 6 % slower, and whichever side runs on CPU 1 a further 20 % slower: the swap turns that into
    // a ±20 % swing of the per-pair ratio, which the one-sample t counts as noise.
    double[] baseline = new double[ROUND.length];
    double[] candidate = new double[ROUND.length];
    for (int i = 0; i < ROUND.length; i++) {
      boolean baselineOnZero = i % 2 == 0;
      baseline[i] = 0.001 * ROUND[i] * (baselineOnZero ? 1 : 1.2);
      candidate[i] = 0.001 * ROUND[i] * 1.06 * (baselineOnZero ? 1.2 : 1) * Math.exp(PAIR_NOISE[i]);
    }
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("write", Sides.of(baseline, candidate));
    ComparisonReport fitted = FigureReports.of(StatisticsSettings.DEFAULTS, steps, true, true);
    ComparisonReport ignored = FigureReports.of(StatisticsSettings.DEFAULTS, steps, true, false);
    RunLevelEffect write = fitted.steps().get(0).runLevel().median();
    assertThat(fitted.steps().get(0).verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(write.estimate().ratio()).isCloseTo(1.06, within(0.01));
    assertThat(write.estimate().cpuSetRatio()).isCloseTo(1.44, within(0.03));
    assertThat(ignored.steps().get(0).verdict()).as("the set's swing left in the noise").isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(ignored.steps().get(0).runLevel().median().estimate().cpuSetRatio()).isNull();

    JsonNode pairs = Json.mapper().readTree(CompareJson.write(fitted)).get("steps").get(0).get("run_level").get("pairs");
    assertThat(pairs.get("cpu_set_ratio").asDouble()).isCloseTo(1.44, within(0.03));
    assertThat(pairs.get("pairs").get(0).get("baseline_cpus").asText()).isEqualTo("0");
    assertThat(pairs.get("pairs").get(1).get("baseline_cpus").asText()).isEqualTo("1");
    assertThat(pairs.get("pairs").get(1).get("candidate_cpus").asText()).isEqualTo("0");
    assertThat(Json.mapper().readTree(CompareJson.write(ignored)).get("steps").get(0).get("run_level").get("pairs")
        .get("cpu_set_ratio").isNull()).isTrue();
    assertThat(fitted.steps().get(0).explanation()).contains("The CPU sets are fitted (crossover)", "×1.4");
    assertThat(CompareMarkdown.write(fitted)).contains("the set is fitted too", "The CPU sets are fitted");
  }

  @Test
  void failOnReadsThePairedVerdicts() {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>();
    steps.put("read", duet(1.08, 6));
    ComparisonReport paired = FigureReports.of(StatisticsSettings.DEFAULTS, steps, true);
    ComparisonReport unpaired = FigureReports.of(StatisticsSettings.DEFAULTS, steps, false);
    // --fail-on regression and not-equivalent read these (CompareCommand.FailOn).
    assertThat(paired.hasRegression()).isTrue();
    assertThat(unpaired.hasRegression()).isFalse();
    assertThat(unpaired.hasRegressionOrInconclusive()).isTrue();
  }

  @Test
  void oneDisturbedRoundDoesNotOverturnADuetsVerdict() {
    // Ten rounds of equal sides, per-pair noise 1 %, the machine swinging ±30 %; round 4 disturbed by +0.2
    // on the log scale (as select-update's two-speed median flips). Least squares' TOST p is 0.09.
    double[] noise = {0.004, -0.012, 0.009, 0.2, -0.006, 0.013, -0.003, 0.007, -0.010, 0.002};
    double[] baseline = new double[noise.length];
    double[] candidate = new double[noise.length];
    for (int i = 0; i < noise.length; i++) {
      baseline[i] = 0.001 * (1 + 0.3 * Math.sin(i));
      candidate[i] = baseline[i] * Math.exp(noise[i]);
    }
    Map<String, Sides<double[]>> steps = Map.of("read", Sides.of(baseline, candidate));
    ComparisonReport report = FigureReports.of(StatisticsSettings.DEFAULTS, steps, true);
    RunLevelEffect read = report.steps().get(0).runLevel().median();
    assertThat(read.verdict()).isEqualTo(Verdict.EQUIVALENT);
    // The number shown is the one decided on: the robust θ, within 0.5 % of 1 where the plain mean is 2 % off.
    assertThat(read.estimate().ratio()).isCloseTo(1.0, within(0.005));
  }

  /**
   * Issue 48 item 3: a duet's step called slower shows its per-operation figures paired as its
   * verdict is (the same rounds, the same estimator), descriptive, and one sentence with the
   * verdict's own θ and interval and the largest change; what a side did not measure says so in
   * report.md, report.json and report.html; a step that has no figure says nothing.
   */
  @Test
  void aCalledStepNamesItsLargestPerOperationChangePairedAsItsVerdict() throws Exception {
    ComparisonReport paired = FigureReports.of(StatisticsSettings.DEFAULTS, steps(), true);
    // Server CPU per operation: 50 µs × the round's swing, the candidate 12 % more with a little noise.
    Map<String, Double> cpu = new LinkedHashMap<>();
    double[] baselineCpu = new double[ROUND.length];
    double[] candidateCpu = new double[ROUND.length];
    for (int i = 0; i < ROUND.length; i++) {
      baselineCpu[i] = 50 * ROUND[i];
      candidateCpu[i] = baselineCpu[i] * 1.12 * Math.exp(-PAIR_NOISE[i]);
      cpu.put("b" + (i + 1), baselineCpu[i]);
      cpu.put("c" + (i + 1), candidateCpu[i]);
    }
    Map<String, Double> io = new LinkedHashMap<>();
    for (int i = 1; i <= ROUND.length; i++) {
      io.put("c" + i, 4096.0 + i);
    }
    JsonNode manifest = Json.mapper().valueToTree(Map.of("step_resources", java.util.List.of(Map.of("step", "read",
        "task_names", java.util.List.of("read"), "not_measured", Map.of("io_read_bytes",
            "pg_stat_io needs PostgreSQL 16; this is 14")))));
    Map<String, JsonNode> manifests = new java.util.HashMap<>();
    for (int i = 1; i <= ROUND.length; i++) {
      manifests.put("b" + i, manifest);
    }
    ComparisonReport report = Compare.withResources(paired, Map.of("read", Map.of(
        dev.benchlake.core.raw.ResourceMetric.SERVER_CPU_US_PER_OP, cpu,
        dev.benchlake.core.raw.ResourceMetric.IO_READ_BYTES_PER_OP, io)), manifests,
        dev.benchlake.analysis.report.Pairing.choose(Sides.of(duetLabels("b"), duetLabels("c")), java.util.List.of()));

    StepComparison read = report.steps().get(0);
    assertThat(read.verdict()).isEqualTo(Verdict.SLOWER);
    dev.benchlake.analysis.report.ResourceFigure figure = read.resources()
        .figure(dev.benchlake.core.raw.ResourceMetric.SERVER_CPU_US_PER_OP);
    HuberLogRatio expected = HuberLogRatio.of(PairedLogRatio.logRatios(baselineCpu, candidateCpu), null);
    assertThat(read.resources().analysis()).isEqualTo("paired");
    assertThat(figure.ratio()).as("the verdict's estimator over the same rounds").isCloseTo(expected.ratio(),
        within(1e-12));
    assertThat(figure.ratioCi95().low()).isCloseTo(expected.interval(0.95).low(), within(1e-12));
    assertThat(figure.moved()).isTrue();
    Estimate theta = read.runLevel().median().estimate();
    String size = String.format(java.util.Locale.ROOT, "%.1f%% [%.1f, %.1f]", (theta.ratio() - 1) * 100,
        (theta.ciDecision().low() - 1) * 100, (theta.ciDecision().high() - 1) * 100);
    assertThat(read.resourceSentence()).isEqualTo("grp c is " + size + " slower on read: server CPU per operation "
        + figure.changeText() + ", server context switches per operation not measured.");
    assertThat(report.steps().get(1).resources()).as("a step without figures").isNull();
    assertThat(report.methods()).contains(dev.benchlake.analysis.report.ResourceFigures.METHOD);
    assertThat(paired.methods()).doesNotContain(dev.benchlake.analysis.report.ResourceFigures.METHOD);

    String md = CompareMarkdown.write(report);
    assertThat(md).contains(dev.benchlake.analysis.report.ResourceFigures.DESCRIPTIVE + ", paired:",
        dev.benchlake.analysis.report.Markdown.text(read.resourceSentence()), "| server CPU per operation | ",
        "not measured on the baseline: pg_stat_io needs PostgreSQL 16; this is 14");
    JsonNode json = Json.mapper().readTree(CompareJson.write(report)).get("steps");
    JsonNode resources = json.get(0).get("resources");
    assertThat(resources.get("descriptive").asBoolean()).isTrue();
    assertThat(resources.get("sentence").asText()).isEqualTo(read.resourceSentence());
    assertThat(resources.get("figures").get(0).get("ratio").asDouble()).isCloseTo(expected.ratio(), within(1e-9));
    assertThat(resources.get("figures").get(1).get("baseline").isNull()).as("never 0").isTrue();
    assertThat(json.get(1).has("resources")).isFalse();
    String html = CompareHtml.write(report, new dev.benchlake.analysis.report.Provenance("benchlake compare", "wh", 0,
        "test"));
    assertThat(html).contains("data-resources", "data-resource-sentence", "server CPU per operation",
        "not measured on the baseline: pg_stat_io needs PostgreSQL 16; this is 14");
    assertThat(CompareHtml.write(paired, new dev.benchlake.analysis.report.Provenance("benchlake compare", "wh", 0,
        "test"))).doesNotContain("data-resources");
  }

  /** The labels a duet writes on runs {@code prefix}1… of one side. */
  private static Map<String, Map<String, String>> duetLabels(String prefix) {
    Map<String, Map<String, String>> labels = new LinkedHashMap<>();
    for (int i = 1; i <= ROUND.length; i++) {
      labels.put(prefix + i, Map.of("design", "duet", "round", Integer.toString(i)));
    }
    return labels;
  }

  private static double halfWidth(Estimate estimate) {
    return Math.log(estimate.ci95().high() / estimate.ci95().low()) / 2;
  }
}
