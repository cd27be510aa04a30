package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A trend of a duet's runs, without Spark: each version is compared with the base in pairs of one
 * round, the relative shown is the paired θ its call rests on, a version with fewer than two complete
 * pairs is inconclusive, and trend.json and trend.md say so (issue 28 item 3).
 */
class PairedTrendTest {
  /** The machine's speed per round, shared by the two runs of a round. */
  private static final double[] ROUND = {1.0, 1.3, 0.75, 1.2, 0.85};
  private static final double[] PAIR_NOISE = {0.01, -0.008, 0.004, -0.01, 0.006};

  private final List<Observation> observations = new ArrayList<>();
  private final Map<String, List<String>> runs = new TreeMap<>();
  private final Map<String, Map<String, String>> labels = new HashMap<>();

  /** A run of {@code version} in {@code round} with qps {@code value}, labelled as a duet labels it. */
  private void run(String version, int round, String step, double value, Map<String, String> more) {
    String id = version + "-" + round;
    observations.add(new Observation(id, version, step, value));
    List<String> ids = runs.computeIfAbsent(version, v -> new ArrayList<>());
    if (!ids.contains(id)) {
      ids.add(id);
    }
    Map<String, String> l = new HashMap<>(more);
    l.put("round", Integer.toString(round));
    labels.put(id, l);
  }

  private void duet(String design) {
    for (int r = 0; r < ROUND.length; r++) {
      run("14", r + 1, "read", 1000 * ROUND[r], Map.of("design", design));
      run("17", r + 1, "read", 1000 * ROUND[r] * 0.9 * Math.exp(PAIR_NOISE[r]), Map.of("design", design));
      if (r < 1) {
        run("17", r + 1, "lonely", 500 * ROUND[r], Map.of("design", design));
      }
      run("14", r + 1, "lonely", 500 * ROUND[r], Map.of("design", design));
    }
  }

  private TrendReport analyse(TrendRequest request) {
    return TrendAnalysis.analyse(observations, runs, request, List.of(), null, labels);
  }

  /**
   * Issue 49: a trend reported beside a comparison of the same runs on another figure says so on
   * each of its pages, under its calls; a trend alone says nothing of the kind.
   */
  @Test
  void aTrendBesideAComparisonSaysWhyItsFiguresDifferOnEveryPage() throws Exception {
    duet("duet");
    TrendReport alone = analyse(TrendRequest.of("db_major", "14", "qps"));
    String line = "This trend follows qps; the comparison calls the same steps on median latency.";
    TrendReport beside = alone.withComparison(line);
    String md = TrendMarkdown.write(beside);
    assertThat(md).contains(TrendMarkdown.headline(beside) + "\n\n> " + line + "\n\n");
    assertThat(Json.mapper().readTree(TrendJson.write(beside)).get("comparison").asText()).isEqualTo(line);
    assertThat(TrendHtml.write(beside, new dev.benchlake.analysis.report.Provenance("benchlake trend", "wh", 1, "t")))
        .contains("<p class=\"note comparison\">" + line + "</p>");
    assertThat(TrendMarkdown.write(alone)).doesNotContain("> This trend");
    assertThat(Json.mapper().readTree(TrendJson.write(alone)).has("comparison")).isFalse();
    assertThat(TrendHtml.write(alone, new dev.benchlake.analysis.report.Provenance("benchlake trend", "wh", 1, "t")))
        .doesNotContain("note comparison");
  }

  @Test
  void eachVersionIsComparedWithTheBaseInPairsAndThePairedThetaIsShown() throws Exception {
    duet("duet");
    TrendReport paired = analyse(TrendRequest.of("db_major", "14", "qps"));
    assertThat(paired.design()).isEqualTo("duet");
    VersionFigure read = at(paired, "read");
    double[] base = new double[ROUND.length];
    double[] version = new double[ROUND.length];
    for (int r = 0; r < ROUND.length; r++) {
      base[r] = 1000 * ROUND[r];
      version[r] = base[r] * 0.9 * Math.exp(PAIR_NOISE[r]);
    }
    PairedLogRatio expected = PairedLogRatio.of(base, version);
    assertThat(read.analysis()).isEqualTo("paired");
    assertThat(read.pairs().size()).isEqualTo(5);
    assertThat(read.relative()).isCloseTo(expected.ratio(), within(1e-12));
    assertThat(read.ci95().low()).isCloseTo(expected.interval(0.95).low(), within(1e-12));
    assertThat(read.verdict()).as("qps 10 % lower in every round").isEqualTo(Verdict.SLOWER);

    VersionFigure lonely = at(paired, "lonely");
    assertThat(lonely.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(lonely.decision()).isNull();

    JsonNode json = Json.mapper().readTree(TrendJson.write(paired));
    assertThat(json.get("design").asText()).isEqualTo("duet");
    JsonNode step = json.get("steps").get(paired.steps().indexOf(paired.steps().stream()
        .filter(s -> s.step().equals("read")).findFirst().orElseThrow()));
    assertThat(step.get("analysis").get("17").asText()).isEqualTo("paired");
    assertThat(step.get("analysis").get("14").isNull()).isTrue();
    assertThat(step.get("pairs").get("17").get("count").asInt()).isEqualTo(5);
    assertThat(TrendMarkdown.write(paired)).contains("## Pairs (design duet)",
        "Dropped for want of a partner: 14-2 (baseline, round=2)", "Analysis against 14: paired (design duet)");

    // The same figures as interleaved rounds: unpaired, and the rounds' swing leaves the call open.
    observations.clear();
    runs.clear();
    labels.clear();
    duet("interleaved");
    TrendReport unpaired = analyse(TrendRequest.of("db_major", "14", "qps"));
    assertThat(unpaired.design()).isEqualTo("unpaired");
    VersionFigure readUnpaired = at(unpaired, "read");
    assertThat(readUnpaired.analysis()).isEqualTo("unpaired");
    assertThat(readUnpaired.pairs()).isNull();
    assertThat(readUnpaired.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(TrendMarkdown.write(unpaired)).doesNotContain("## Pairs");
    TrendReport byRound = analyse(TrendRequest.of("db_major", "14", "qps").withPairBy(List.of("round")));
    assertThat(byRound.design()).isEqualTo("paired-by:round");
    assertThat(at(byRound, "read").ci95()).isEqualTo(read.ci95());
  }

  @Test
  void thePairsAreOneTablePerStudyListedOnceWithTheStepsPairedOtherwiseAsExceptions() {
    // 48 steps over the same 5 rounds, and one step that round 3 of 17 has no figure for.
    for (int r = 0; r < ROUND.length; r++) {
      for (int step = 1; step <= 48; step++) {
        run("14", r + 1, "step" + step, 1000 * ROUND[r], Map.of("design", "duet"));
        if (step != 7 || r != 2) {
          run("17", r + 1, "step" + step, 900 * ROUND[r] * Math.exp(PAIR_NOISE[r]), Map.of("design", "duet"));
        }
      }
    }
    String md = TrendMarkdown.write(analyse(TrendRequest.of("db_major", "14", "qps")));
    String pairs = md.substring(md.indexOf("## Pairs"), md.indexOf("## Runs"));

    for (int r = 1; r <= ROUND.length; r++) {
      assertThat(pairs).as("round %d's pair, once", r).containsOnlyOnce("| 17 | round=" + r + " | `14-" + r + "` | `17-"
          + r + "` |");
    }
    assertThat(pairs).contains("- 17 against 14: 5 pairs, the same in 47 of 48 steps.", "Steps paired otherwise:",
        "- `step7`, 17 against 14: Paired: 4 pairs (round=1: 14-1 with 17-1; round=2: 14-2 with 17-2; round=4: 14-4"
            + " with 17-4; round=5: 14-5 with 17-5). Dropped for want of a partner: 14-3 (baseline, round=3): no"
            + " candidate run with a figure has round=3.");
    assertThat(pairs.lines().count()).as("a table of 5 pairs, not 48 x 5 lines").isLessThan(20);
  }

  /** Version 17 of {@code step}. */
  /**
   * Issue 48 item 3: per step and version against the base, the per-operation resource figures,
   * paired as the call against the base is (the same rounds, least squares), in trend.md, trend.json
   * and trend.html, with server CPU per operation charted beside qps; the sentence of a slower call
   * carries the call's own relative and interval. A trend whose runs have none says nothing.
   */
  @Test
  void perOperationFiguresArePairedAsTheCallAgainstTheBaseAndChartedBesideIt() throws Exception {
    duet("duet");
    TrendRequest request = TrendRequest.of("db_major", "14", "qps");
    TrendReport plain = analyse(request);
    Map<String, Double> cpu = new java.util.LinkedHashMap<>();
    double[] base = new double[ROUND.length];
    double[] version = new double[ROUND.length];
    for (int r = 0; r < ROUND.length; r++) {
      base[r] = 40 * ROUND[r];
      version[r] = base[r] * 1.2 * Math.exp(PAIR_NOISE[r]);
      cpu.put("14-" + (r + 1), base[r]);
      cpu.put("17-" + (r + 1), version[r]);
    }
    TrendReport report = Trend.withResources(plain, Map.of("read", Map.of(
        dev.benchlake.core.raw.ResourceMetric.SERVER_CPU_US_PER_OP, cpu)), Map.of(),
        TrendAnalysis.pairings(request, runs, labels));

    TrendReport.Resources read = report.resourcesAt("read", "17");
    PairedLogRatio expected = PairedLogRatio.of(base, version);
    dev.benchlake.analysis.report.ResourceFigure figure = read.figures()
        .figure(dev.benchlake.core.raw.ResourceMetric.SERVER_CPU_US_PER_OP);
    assertThat(figure.ratio()).isCloseTo(expected.ratio(), within(1e-12));
    assertThat(figure.ratioCi95().high()).isCloseTo(expected.interval(0.95).high(), within(1e-12));
    VersionFigure call = at(report, "read");
    String size = String.format(java.util.Locale.ROOT, "%.1f%% [%.1f, %.1f]", (1 - call.relative()) * 100,
        (1 - call.ci95().high()) * 100, (1 - call.ci95().low()) * 100);
    assertThat(read.sentence()).isEqualTo("PostgreSQL 17 is " + size + " slower on read: server CPU per operation "
        + figure.changeText() + ", server context switches per operation not measured.");
    assertThat(report.resourcesAt("lonely", "17")).isNull();

    String md = TrendMarkdown.write(report);
    assertThat(md).contains("## Per-operation resources against 14",
        dev.benchlake.analysis.report.Markdown.text(read.sentence()), "| server CPU per operation | ");
    JsonNode step = Json.mapper().readTree(TrendJson.write(report)).get("steps").get(report.steps().indexOf(
        report.steps().stream().filter(s -> s.step().equals("read")).findFirst().orElseThrow()));
    assertThat(step.get("resources").get("17").get("sentence").asText()).isEqualTo(read.sentence());
    assertThat(step.get("resources").get("17").get("figures").get(0).get("ratio").asDouble())
        .isCloseTo(expected.ratio(), within(1e-9));
    String html = TrendHtml.write(report, new dev.benchlake.analysis.report.Provenance("benchlake trend", "wh", 1, "t"));
    assertThat(html).contains("data-chart=\"cpu\"", "data-resource-sentence",
        "Per-operation resources against db_major 14");

    assertThat(TrendMarkdown.write(plain)).doesNotContain("Per-operation resources");
    assertThat(TrendHtml.write(plain, new dev.benchlake.analysis.report.Provenance("benchlake trend", "wh", 1, "t")))
        .doesNotContain("data-chart=\"cpu\"");
  }

  private static VersionFigure at(TrendReport report, String step) {
    return report.steps().stream().filter(s -> s.step().equals(step)).findFirst().orElseThrow().at("17");
  }

  @Test
  void aPairByLabelTheRunsLackIsBadInput() {
    duet("interleaved");
    assertThatThrownBy(() -> analyse(TrendRequest.of("db_major", "14", "qps").withPairBy(List.of("batch"))))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("--pair-by batch: baseline run 14-1 has no"
            + " label 'batch'");
  }
}
