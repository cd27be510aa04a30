package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.EDivisive;
import dev.benchlake.analysis.stats.GeometricMean;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 47: the change points of a paired trend (a duet of several majors, {@code --pair-by}) are
 * found on the runs' figures with each pair's shared moment taken out ({@link PairedFigures}), as
 * its calls are, not on the raw figures that carry the machine's swing from pair to pair.
 */
class PairedChangePointsTest {
  private static final List<String> MAJORS = List.of("11", "12", "13", "14", "15", "16");
  private static final String STEP = "point-query_range=100";

  private final List<Observation> observations = new ArrayList<>();
  private final Map<String, List<String>> runs = new TreeMap<>();
  private final Map<String, Map<String, String>> labels = new HashMap<>();

  /**
   * A duet of 11 against each later major, {@code rounds} rounds of one pair per major (labels as
   * {@code study versions --design duet} writes them); both runs of a pair share its moment
   * {@code moment(round, major)} (a log), each run has 1 % noise of its own.
   */
  private void duet(int rounds, java.util.function.ToDoubleBiFunction<Integer, String> moment,
      java.util.function.ToDoubleFunction<String> level, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int round = 1; round <= rounds; round++) {
      for (String major : MAJORS.subList(1, MAJORS.size())) {
        String pair = "11v" + major;
        double shared = moment.applyAsDouble(round, major);
        for (String version : List.of("11", major)) {
          String id = "r" + round + "-" + pair + "-" + version;
          runs.computeIfAbsent(version, v -> new ArrayList<>()).add(id);
          labels.put(id, Map.of("design", "duet", "round", Integer.toString(round), "pair", pair));
          observations.add(new Observation(id, version, STEP, level.applyAsDouble(version)
              * Math.exp(shared + 0.01 * random.nextGaussian())));
        }
      }
    }
  }

  private TrendReport paired() {
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps"), List.of(), null, labels);
  }

  /** The same runs without their pairing labels: the change points as they were found before issue 47. */
  private TrendReport unpaired() {
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps"), List.of(), null,
        Map.of());
  }

  private static StepTrend step(TrendReport report) {
    return report.steps().get(0);
  }

  @Test
  void aSwingSharedByThePairsOfLaterMajorsIsNoChangePoint() {
    // Every major is as fast as 11. In each of 4 rounds the pairs against 14, 15 and 16 ran while
    // something slowed the machine by 25 % (both runs of each of those pairs), the others did not.
    duet(4, (round, major) -> major.compareTo("14") >= 0 ? Math.log(0.75) : 0, version -> 1000, 47);

    List<TrendReport.ChangePoint> raw = step(unpaired()).changePoints();
    // On the raw figures: a spurious drop at 14, and a rise at 12 (half of 11's runs were slowed).
    assertThat(raw).as("raw").anySatisfy(c -> {
      assertThat(c.at()).isEqualTo("14");
      assertThat(c.ratio()).isLessThan(0.8);
    });

    TrendReport report = paired();
    assertThat(report.changePointsPaired()).isTrue();
    assertThat(step(report).changePoints()).as("paired figures: no shift").isEmpty();
    for (String major : MAJORS.subList(1, MAJORS.size())) {
      assertThat(step(report).at(major).verdict()).as(major).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  @Test
  void roundsThatDoNotHoldEveryVersionAndSwingTogetherHideNoShift() {
    // Interleaved rounds paired with --pair-by round: versions 1-3 in rounds 1-9, 4-6 joined at
    // round 7, when the machine became 20 % slower for every version of the round. No version differs.
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 1; round <= 9; round++) {
      for (int version = 1; version <= 6; version++) {
        if (version >= 4 && round < 7) {
          continue;
        }
        String id = "v" + version + "-r" + round;
        runs.computeIfAbsent(Integer.toString(version), v -> new ArrayList<>()).add(id);
        labels.put(id, Map.of("round", Integer.toString(round)));
        observations.add(new Observation(id, Integer.toString(version), STEP, 1000 * (round >= 7 ? 0.8 : 1)
            * Math.exp(0.01 * random.nextGaussian())));
      }
    }
    TrendRequest request = TrendRequest.of("version", "1", "qps");
    assertThat(step(TrendAnalysis.analyse(observations, runs, request, List.of(), null, labels)).changePoints())
        .as("raw: the later versions ran only in the slow rounds").extracting(TrendReport.ChangePoint::at).contains("4");
    TrendReport paired = TrendAnalysis.analyse(observations, runs, request.withPairBy(List.of("round")), List.of(), null,
        labels);
    assertThat(paired.design()).isEqualTo("paired-by:round");
    assertThat(step(paired).changePoints()).as("paired figures").isEmpty();
  }

  @Test
  void aRealShiftAt14IsFoundThereWithItsRatioThroughLargeSwingsOfThePairs() {
    // A 15 % drop from 14 on, under a moment that swings by 20 % from pair to pair.
    SplittableRandom swing = new SplittableRandom(4747);
    Map<String, Double> moments = new HashMap<>();
    duet(5, (round, major) -> moments.computeIfAbsent(round + major, k -> 0.2 * swing.nextGaussian()),
        version -> version.compareTo("14") >= 0 ? 850 : 1000, 11);

    assertThat(step(unpaired()).changePoints()).as("the raw figures' swing hides it").isEmpty();

    TrendReport report = paired();
    StepTrend s = step(report);
    assertThat(s.changePoints()).singleElement().satisfies(c -> {
      assertThat(c.at()).isEqualTo("14");
      assertThat(c.ratio()).isCloseTo(0.85, within(0.02));
      assertThat(c.after() / c.before()).isCloseTo(c.ratio(), within(1e-12));
      assertThat(c.p()).isLessThanOrEqualTo(TrendRequest.DEFAULT_CHANGE_POINT_ALPHA);
      // On the metric's scale: the level before is the base's, as its paired figures keep its geometric mean.
      assertThat(c.before()).isCloseTo(s.at("11").value(), within(0.03 * s.at("11").value()));
      // Comparable to the paired relatives: the level after over the base is about 14..16's.
      double relatives = GeometricMean.of(new double[] {s.at("14").relative(), s.at("15").relative(),
          s.at("16").relative()});
      assertThat(c.after() / s.at("11").value()).isCloseTo(relatives, within(0.01));
    });

    // The reports say which figures the change points are on.
    assertThat(TrendMarkdown.write(report))
        .contains("## Change points (E-divisive means on the runs' logs with each pair's shared moment taken out");
    assertThat(report.methods()).anyMatch(m -> m.startsWith("Change points:")
        && m.contains("per-run figures with each pair's shared moment taken out"));
    assertThat(TrendHtml.write(report, new dev.benchlake.analysis.report.Provenance("benchlake trend", "wh", 1, "t")))
        .contains("E-divisive means on the runs&#39; logs with each pair&#39;s shared moment taken out");
  }

  @Test
  void aPairedTrendsJsonNamesItsChangePointFiguresAnUnpairedOneIsAsBefore() throws Exception {
    duet(3, (round, major) -> 0, version -> 1000, 3);
    JsonNode paired = Json.mapper().readTree(TrendJson.write(paired()));
    assertThat(paired.get("change_point_figures").asText()).isEqualTo(TrendJson.CHANGE_POINT_FIGURES_PAIRED);
    TrendReport unpaired = unpaired();
    assertThat(unpaired.changePointsPaired()).isFalse();
    assertThat(Json.mapper().readTree(TrendJson.write(unpaired)).has("change_point_figures")).isFalse();
    assertThat(TrendMarkdown.write(unpaired)).contains("## Change points (E-divisive means on the runs' logs, α = 0.01)");
    assertThat(unpaired.methods()).noneMatch(m -> m.contains("shared moment"));
  }

  @Test
  void tooFewPairedFiguresGiveNoChangePointAndSaySoRatherThanUseTheRawOnes() {
    // Each major ran in its own round, 11 with it, but 13's and 14's runs of the step failed on 11's
    // side: 12 and 13 each have 2 runs, only 12's pairs are complete.
    for (String major : List.of("12", "13")) {
      for (int round = 1; round <= 2; round++) {
        for (String version : List.of("11", major)) {
          String id = "r" + round + "-" + major + "-" + version;
          runs.computeIfAbsent(version, v -> new ArrayList<>()).add(id);
          labels.put(id, Map.of("design", "duet", "round", Integer.toString(round), "pair", "11v" + major));
          if (!(version.equals("11") && major.equals("13"))) {
            observations.add(new Observation(id, version, STEP, version.equals("13") ? 700 : 1000 + round));
          }
        }
      }
    }
    TrendReport report = paired();
    assertThat(step(report).changePoints()).isEmpty();
    assertThat(report.messages()).anyMatch(m -> m.startsWith("step " + STEP + ": its change points leave out db_major"
        + " 13"));
    // 11 and 12: 4 paired runs at 2 values, enough to search; alone 12 at 11 is no change.
    assertThat(report.messages()).noneMatch(m -> m.contains("no change points, as its complete pairs"));

    // A second step with the same runs: one line for both, not one per step (a study has 48).
    List<Observation> second = observations.stream()
        .map(o -> new Observation(o.runId(), o.version(), "insert_range=100", o.value())).toList();
    observations.addAll(second);
    TrendReport twoSteps = paired();
    assertThat(twoSteps.messages()).filteredOn(m -> m.contains("change points leave out")).containsExactly(
        "every step (2): its change points leave out db_major 13, whose runs share no pair with a run tied to 11, so"
            + " the pairs' moment cannot be taken out of their figures.");
    observations.removeAll(second);

    // Without 12's pairs nothing is left to search: said, not replaced by the raw figures.
    observations.removeIf(o -> o.version().equals("12"));
    TrendReport none = paired();
    assertThat(step(none).changePoints()).isEmpty();
    assertThat(none.messages()).anyMatch(m -> m.equals("step " + STEP + ": no change points, as its complete pairs"
        + " leave 0 runs at 0 values of db_major, and the search needs two values and 4 runs (the unpaired figures,"
        + " which carry the pairs' swing, are not used instead)."));
  }

  /**
   * The decomposition against numpy's least squares: analysis/src/test/python/
   * make_paired_figures_reference.py fits ln x = μ_version + β_key + e with numpy.linalg.lstsq on the
   * full dummy matrix (its minimum-norm solution) and prints each run's ln x less the mean of
   * ln x_j − μ_j over its key's other runs, exponentiated and scaled so that the base keeps its
   * geometric mean, for these runs: rounds that lack a version (the base misses r3, 3 misses r5, 4
   * joined at r3), a run whose key no other version shares (4's r9), and two versions (5, 6) tied to
   * each other but not to the base.
   */
  @Test
  void theAdjustedFiguresAreNumpysLeastSquares() {
    Object[][] data = {
        {"1-r1", "1", "r1", 1000}, {"1-r2", "1", "r2", 1100}, {"1-r4", "1", "r4", 900}, {"1-r5", "1", "r5", 1050},
        {"2-r1", "2", "r1", 980}, {"2-r2", "2", "r2", 1090}, {"2-r3", "2", "r3", 1200}, {"2-r4", "2", "r4", 870},
        {"2-r5", "2", "r5", 1000},
        {"3-r1", "3", "r1", 1010}, {"3-r2", "3", "r2", 1150}, {"3-r3", "3", "r3", 1230}, {"3-r4", "3", "r4", 950},
        {"4-r3", "4", "r3", 1100}, {"4-r4", "4", "r4", 800}, {"4-r5", "4", "r5", 960}, {"4-r9", "4", "r9", 777},
        {"5-x1", "5", "x1", 500}, {"5-x2", "5", "x2", 520}, {"6-x1", "6", "x1", 510}, {"6-x2", "6", "x2", 540}};
    Map<String, Map<String, Double>> byVersion = new TreeMap<>();
    Map<String, String> keyOfRun = new HashMap<>();
    for (Object[] d : data) {
      byVersion.computeIfAbsent((String) d[1], v -> new LinkedHashMap<>()).put((String) d[0],
          ((Integer) d[3]).doubleValue());
      keyOfRun.put((String) d[0], (String) d[2]);
    }
    PairedFigures.Adjusted adjusted = PairedFigures.of(byVersion, keyOfRun, List.of("1", "2", "3", "4", "5", "6"), "1");

    Map<String, Double> numpy = new LinkedHashMap<>();
    numpy.put("1-r1", 1017.3834888372832);
    numpy.put("1-r2", 994.4636789824054);
    numpy.put("1-r4", 1010.5430599211271);
    numpy.put("1-r5", 1016.7075737553308);
    numpy.put("2-r1", 999.2318112841116);
    numpy.put("2-r2", 993.0751122766561);
    numpy.put("2-r3", 1005.5446268747006);
    numpy.put("2-r4", 973.8351588551196);
    numpy.put("2-r5", 956.6532761288167);
    numpy.put("3-r1", 1017.6128280539067);
    numpy.put("3-r2", 1047.5203916041246);
    numpy.put("3-r3", 1015.6884691430008);
    numpy.put("3-r4", 1075.491138672342);
    numpy.put("4-r3", 916.4481868423246);
    numpy.put("4-r4", 892.9751386400858);
    numpy.put("4-r5", 934.4387087895104);

    assertThat(adjusted.leftOut()).containsExactly("5", "6");
    assertThat(adjusted.byVersion().keySet()).containsExactly("1", "2", "3", "4");
    Map<String, Double> all = new LinkedHashMap<>();
    adjusted.byVersion().values().forEach(all::putAll);
    assertThat(all.keySet()).containsExactlyInAnyOrderElementsOf(numpy.keySet());
    numpy.forEach((run, x) -> assertThat(all.get(run)).as(run).isCloseTo(x, within(1e-9 * x)));
    // The base keeps the geometric mean of its raw runs.
    assertThat(GeometricMean.of(adjusted.byVersion().get("1").values().stream().mapToDouble(Double::doubleValue)
        .toArray())).isCloseTo(GeometricMean.of(new double[] {1000, 1100, 900, 1050}), within(1e-9));
  }

  @Test
  void anUnpairedTrendsChangePointsAreThoseOfTheRawFigures() {
    duet(4, (round, major) -> major.compareTo("14") >= 0 ? Math.log(0.75) : 0, version -> 1000, 47);
    Map<String, Map<String, Double>> raw = new TreeMap<>();
    observations.forEach(o -> raw.computeIfAbsent(o.version(), v -> new TreeMap<>()).put(o.runId(), o.value()));
    List<String> messages = new ArrayList<>();
    assertThat(step(unpaired()).changePoints()).isEqualTo(ChangePoints.of(STEP, raw, MAJORS,
        EDivisive.at(TrendRequest.DEFAULT_CHANGE_POINT_ALPHA), messages)).isNotEmpty();
  }
}
