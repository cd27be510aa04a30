package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.cli.BadInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trend's arithmetic and its edge cases, without Spark. */
class TrendAnalysisTest {
  @TempDir
  Path dir;

  private final List<Observation> observations = new ArrayList<>();
  private final Map<String, List<String>> runs = new TreeMap<>();

  private void add(String version, String step, double... values) {
    for (int i = 0; i < values.length; i++) {
      String run = version + "-" + (i + 1);
      observations.add(new Observation(run, version, step, values[i]));
      List<String> ids = runs.computeIfAbsent(version, v -> new ArrayList<>());
      if (!ids.contains(run)) {
        ids.add(run);
      }
    }
  }

  private TrendReport analyse(TrendRequest request) {
    return TrendAnalysis.analyse(observations, runs, request, List.of());
  }

  private static StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aStudyCutShortSaysSoAtTheTopOfItsTrend() throws Exception {
    add("11", "point-select", 100, 110);
    add("12", "point-select", 120, 130);
    dev.benchlake.analysis.report.CutShort cut = new dev.benchlake.analysis.report.CutShort(2, 5, false,
        "side b (r3-b on CPUs 1) was killed (signal 9)");
    TrendReport r = analyse(TrendRequest.of("db_major", "11", "qps")).withCutShort(cut);
    assertThat(TrendMarkdown.headline(r)).startsWith(cut.sentence() + " Calls against 11: ");
    assertThat(TrendMarkdown.write(r)).contains(cut.sentence());
    assertThat(dev.benchlake.core.Json.mapper().readTree(TrendJson.write(r)).get("cut_short").get("after_round")
        .asInt()).isEqualTo(2);
    assertThat(TrendJson.write(analyse(TrendRequest.of("db_major", "11", "qps")))).doesNotContain("cut_short");
  }

  @Test
  void relativesAreRatiosOfGeometricMeansAndTheGroupTakesTheirGeometricMean() {
    add("11", "point-select", 100, 400);
    add("12", "point-select", 400, 400);
    add("11", "random-points", 10, 10);
    add("12", "random-points", 40, 40);
    TrendReport r = analyse(TrendRequest.of("db_major", "11", "qps"));
    assertThat(step(r, "point-select").at("11").value()).isCloseTo(200, within(1e-9));
    assertThat(step(r, "point-select").at("12").relative()).isCloseTo(2, within(1e-12));
    assertThat(step(r, "point-select").at("11").spread()).isCloseTo(3, within(1e-12));
    assertThat(r.groups()).singleElement().satisfies(g -> {
      assertThat(g.group()).isEqualTo(StepGroups.POINT);
      assertThat(g.at("12").geomean()).isCloseTo(Math.sqrt(2 * 4), within(1e-12));
      assertThat(g.at("12").steps()).isEqualTo(2);
    });
  }

  @Test
  void undefinedFiguresAreNullWithAReasonNeverNaN() {
    add("11", "a-point", 100, 101);
    add("12", "a-point", 0, 120);
    add("12", "b-point", 50, 51);
    add("13", "b-point", 60);
    add("11", "c-point", 0, 0);
    add("12", "c-point", 10, 10);
    observations.add(new Observation("13-1", "13", "a-point", -1));
    TrendReport r = analyse(TrendRequest.of("db_major", "11", "qps"));
    StepTrend a = step(r, "a-point");
    assertThat(a.at("12").value()).isZero();
    assertThat(a.at("12").relative()).isZero();
    assertThat(a.at("12").ci95()).isNull();
    assertThat(a.at("13").value()).isNull();
    StepTrend b = step(r, "b-point");
    assertThat(b.versions().stream().map(VersionFigure::relative)).containsOnlyNulls();
    assertThat(b.at("13").value()).isEqualTo(60);
    assertThat(step(r, "c-point").versions().stream().map(VersionFigure::relative)).containsOnlyNulls();
    assertThat(r.messages()).anyMatch(m -> m.contains("a run has qps = 0"))
        .anyMatch(m -> m.contains("step b-point has no value at db_major 11"))
        .anyMatch(m -> m.contains("step c-point is 0 at db_major 11"))
        .anyMatch(m -> m.contains("db_major 13 has one run"))
        .anyMatch(m -> m.contains("-1.0 is not a valid figure"))
        .anyMatch(m -> m.contains("left out of the geometric mean of point query"));
    assertThat(TrendJson.write(r)).doesNotContain("NaN").doesNotContain("Infinity");
  }

  @Test
  void forLatenciesLowerIsBetter() {
    add("11", "update-index", 0.010, 0.0101, 0.0099);
    add("12", "update-index", 0.020, 0.0202, 0.0198);
    add("13", "update-index", 0.010, 0.0101, 0.0099);
    TrendReport r = analyse(TrendRequest.of("db_major", "11", "p99_s"));
    assertThat(r.flags()).extracting(TrendReport.Flag::kind).containsExactly("regression", "improvement");
    TrendReport q = analyse(TrendRequest.of("db_major", "11", "qps"));
    assertThat(q.flags()).extracting(TrendReport.Flag::kind).containsExactly("improvement", "regression");
  }

  @Test
  void changesAreTheFasterOrSlowerCallsAfterTheCorrection() {
    add("1", "small-point", 100, 101, 99);
    add("2", "small-point", 103, 104, 102);
    add("1", "big-point", 100, 101, 99);
    add("2", "big-point", 130, 131, 129);
    add("1", "noisy-point", 100, 150, 70);
    add("2", "noisy-point", 130, 190, 90);
    TrendReport holm = analyse(TrendRequest.of("v", "1", "qps"));
    // +3 % is real (Holm-adjusted p ≈ 0.04) but its interval reaches past the margin: a change of
    // uncertain size, not an equivalence and not nothing; +30 % is beyond the margin.
    assertThat(holm.flags()).extracting(TrendReport.Flag::step, TrendReport.Flag::verdict, TrendReport.Flag::beyondMargin)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("big-point", Verdict.FASTER, true),
            org.assertj.core.groups.Tuple.tuple("small-point", Verdict.FASTER, false));
    assertThat(holm.flags()).allSatisfy(f -> assertThat(f.pAdjusted()).isGreaterThanOrEqualTo(f.p()));
    assertThat(step(holm, "noisy-point").at("2").versusPrevious()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(step(holm, "noisy-point").noisy()).isTrue();
    assertThat(step(holm, "big-point").noisy()).isFalse();
    assertThat(step(holm, "small-point").noisy()).isFalse();
    TrendReport wide = analyse(TrendRequest.of("v", "1", "qps").withSettings(new StatisticsSettings(0.05, 0.5, Correction.BH)));
    assertThat(wide.flags()).isEmpty();
    assertThat(step(wide, "big-point").at("2").versusPrevious()).as("+30 % within ±50 %").isEqualTo(Verdict.EQUIVALENT);
    assertThat(wide.settings().correction()).isEqualTo(Correction.BH);
  }

  @Test
  void callsAgainstTheBaseUseTheFourVerdictsByTheMetricsDirection() {
    add("11", "up-point", 100, 101, 99, 100.5);
    add("12", "up-point", 130, 131, 129, 130.5);
    add("11", "flat-point", 100, 101, 99, 100.5);
    add("12", "flat-point", 100.2, 101.1, 99.3, 100.4);
    add("11", "vague-point", 100, 140, 75, 110);
    add("12", "vague-point", 105, 150, 80, 100);
    add("13", "up-point", 140);
    TrendReport qps = analyse(TrendRequest.of("db_major", "11", "qps"));
    assertThat(step(qps, "up-point").versions()).extracting(VersionFigure::verdict)
        .containsExactly(null, Verdict.FASTER, Verdict.INCONCLUSIVE);
    assertThat(step(qps, "flat-point").at("12").verdict()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(step(qps, "vague-point").at("12").verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    // Between-run SD of the logs ≈ 0.2: far more than 4 runs to settle ±5 %.
    assertThat(step(qps, "vague-point").at("12").runsNeeded().runs()).isGreaterThan(50);
    assertThat(step(qps, "up-point").at("12").runsNeeded()).isNull();
    assertThat(step(qps, "up-point").at("13").runsNeeded()).as("one run: no variance to plan from").isNull();
    assertThat(step(qps, "up-point").versions()).extracting(VersionFigure::versusPrevious)
        .containsExactly(null, Verdict.FASTER, Verdict.INCONCLUSIVE);
    TrendReport latency = analyse(TrendRequest.of("db_major", "11", "p99_s"));
    assertThat(step(latency, "up-point").at("12").verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(latency.flags()).singleElement().satisfies(f -> {
      assertThat(f.verdict()).isEqualTo(Verdict.SLOWER);
      assertThat(f.kind()).isEqualTo("regression");
      assertThat(f.beyondMargin()).isTrue();
    });
    assertThat(TrendJson.write(latency)).contains("\"verdict\": {").contains("\"verdict_vs_previous\"")
        .contains("\"beyond_margin\": true");
  }

  @Test
  void noisyMeansAnIntervalWiderThanTheMarginNotASpreadOfRepeats() {
    // Two runs each that agree within 4 %: the spread is inside the margin, but two runs give
    // Welch's t 1 or 2 degrees of freedom, an interval far wider than ±5 %.
    add("1", "two-point", 100, 104);
    add("2", "two-point", 100, 104);
    // Twenty runs with one 25 % outlier: a big spread, but a narrow interval.
    double[] many = new double[20];
    java.util.Arrays.fill(many, 100);
    many[7] = 80;
    add("1", "many-point", many);
    add("2", "many-point", many);
    TrendReport r = analyse(TrendRequest.of("v", "1", "qps"));
    assertThat(step(r, "two-point").at("1").spread()).isLessThan(0.05);
    assertThat(step(r, "two-point").noisy()).isTrue();
    assertThat(step(r, "many-point").at("1").spread()).isGreaterThan(0.2);
    assertThat(step(r, "many-point").noisy()).isFalse();
  }

  @Test
  void aGroupsIntervalComesFromPerRunGroupFigures() {
    // The runs of 2 trade one step against the other: each step alone is all over the place, but
    // every run's geometric mean over the two steps is close to 2·(its base figure).
    add("1", "a-point", 10, 40, 20);
    add("1", "b-point", 40, 10, 20);
    add("2", "a-point", 20, 80, 41);
    add("2", "b-point", 80, 20, 39);
    TrendReport r = analyse(TrendRequest.of("v", "1", "qps"));
    TrendReport.GroupTrend g = r.groups().get(0);
    assertThat(g.at("1").ci95()).isNull();
    double low = g.at("2").ci95().low();
    double high = g.at("2").ci95().high();
    // Every run has both steps: the interval is centred (on the log scale) on the geometric mean.
    assertThat(Math.sqrt(low * high)).isCloseTo(g.at("2").geomean(), within(1e-9));
    assertThat(g.at("2").geomean()).isCloseTo(2, within(0.01));
    assertThat(high / low).as("group interval").isLessThan(1.05);
    for (String name : List.of("a-point", "b-point")) {
      assertThat(step(r, name).at("2").ci95().high() / step(r, name).at("2").ci95().low()).as(name).isGreaterThan(5);
    }
  }

  @Test
  void aGroupKeepsRunsThatLackOneOfItsSteps() {
    add("1", "a-point", 10, 11, 12);
    add("1", "b-point", 20, 21, 22);
    add("2", "a-point", 15, 16, 17);
    observations.add(new Observation("2-1", "2", "b-point", 30));
    observations.add(new Observation("2-2", "2", "b-point", 31));
    TrendReport r = analyse(TrendRequest.of("v", "1", "qps"));
    assertThat(r.groups().get(0).at("2").ci95()).isNotNull();
    assertThat(r.messages()).contains("point query: steps measured by different runs: each step's ratio is from its"
        + " own runs, the group's interval from all of them, clustered by run (by round where paired), none left out:"
        + " v 2: 6 runs, 5-6 a step.");
  }

  @Test
  void versionsSortByTheirDotSeparatedPartsAsNumbers() {
    assertThat(List.of("14.10", "14.9", "9.6", "14", "15", "10", "14.1").stream().sorted(TrendAnalysis.versionOrder())
        .toList()).containsExactly("9.6", "10", "14", "14.1", "14.9", "14.10", "15");
    assertThat(List.of("16beta1", "16", "16.rc1", "16.1").stream().sorted(TrendAnalysis.versionOrder()).toList())
        .as("a text part after the numbers").containsExactly("16", "16.1", "16.rc1", "16beta1");
    assertThat(TrendAnalysis.versionOrder().compare("14.01", "14.1")).isNotZero();
    assertThat(TrendAnalysis.versionOrder().compare("14.01", "14.1")).isEqualTo(-TrendAnalysis.versionOrder().compare("14.1", "14.01"));
  }

  @Test
  void versionsSortAsNumbersWhenTheyAreAndTheBaseMustBeOne() {
    add("10", "x", 1);
    add("9.6", "x", 1);
    add("11", "x", 1);
    assertThat(analyse(TrendRequest.of("db_version", "9.6", "qps")).versions()).containsExactly("9.6", "10", "11");
    assertThatThrownBy(() -> analyse(TrendRequest.of("db_version", "12", "qps"))).isInstanceOf(BadInputException.class)
        .hasMessageContaining("9.6, 10, 11");
    assertThat(List.of("windows", "linux", "2").stream().sorted(TrendAnalysis.versionOrder()).toList())
        .containsExactly("2", "linux", "windows");
  }

  @Test
  void builtInGroupsCoverLoadgenSysbenchAndPgbenchNames() {
    StepGroups groups = StepGroups.builtIn();
    for (String point : List.of("point-select", "oltp_point_select", "random-points", "select_random_points", "select-only")) {
      assertThat(groups.groupOf(point)).as(point).isEqualTo(StepGroups.POINT);
    }
    for (String range : List.of("simple-range", "sum-range", "order-range", "distinct-range", "random-ranges",
        "select_random_ranges", "scan_range")) {
      assertThat(groups.groupOf(range)).as(range).isEqualTo(StepGroups.RANGE);
    }
    for (String write : List.of("update-index", "update-non-index", "insert", "delete", "oltp_update_index", "oltp_insert",
        "oltp_delete", "write-only", "oltp_write_only", "bulk_insert", "tpcb-like", "simple-update", "update-one")) {
      assertThat(groups.groupOf(write)).as(write).isEqualTo(StepGroups.WRITES);
    }
    for (String other : List.of("read-only", "read-write", "oltp_read_only", "oltp_read_write", "select-update-mix", "custom")) {
      assertThat(groups.groupOf(other)).as(other).isIn(StepGroups.OTHER, StepGroups.WRITES);
    }
    assertThat(groups.groupOf("oltp_read_write")).isEqualTo(StepGroups.OTHER);
    assertThat(groups.groupOf("custom")).isEqualTo(StepGroups.OTHER);
  }

  /**
   * all_small.sh's first step, point-query.warm, readies the server after the load: a warm-up of its
   * own, not a point query of part 1, while the steps measured before the writes (.pre) keep their
   * test type's group.
   */
  @Test
  void theMytoolsWarmUpStepIsAGroupOfItsOwnNotAPointQuery() {
    StepGroups groups = StepGroups.builtIn();
    assertThat(groups.groupOf("point-query.warm_range=100")).isEqualTo(StepGroups.WARM_UP);
    assertThat(groups.groupOf("point-query.warm_range=100_dop=8")).isEqualTo(StepGroups.WARM_UP);
    assertThat(groups.groupOf("point-query.pre_range=100")).isEqualTo(StepGroups.POINT_1);
    assertThat(groups.groupOf("point-query_range=100")).isEqualTo(StepGroups.POINT_1);
    assertThat(java.util.stream.Stream.of(StepGroups.OTHER, StepGroups.WARM_UP, StepGroups.WRITES, StepGroups.POINT_1)
        .sorted(StepGroups.order()).toList())
        .containsExactly(StepGroups.POINT_1, StepGroups.WRITES, StepGroups.WARM_UP, StepGroups.OTHER);
  }

  @Test
  void aGroupsFileComesBeforeTheBuiltInRules() throws Exception {
    Path file = dir.resolve("groups.yaml");
    Files.writeString(file, "steps: {update-one: hot path}\nrules:\n  - {match: '^scan', group: scans}\n", StandardCharsets.UTF_8);
    StepGroups groups = StepGroups.read(file);
    assertThat(groups.groupOf("update-one")).isEqualTo("hot path");
    assertThat(groups.groupOf("scan_range")).isEqualTo("scans");
    assertThat(groups.groupOf("point-select")).isEqualTo(StepGroups.POINT);
    assertThat(List.of(StepGroups.OTHER, "scans", StepGroups.WRITES, StepGroups.POINT).stream().sorted(StepGroups.order()))
        .containsExactly(StepGroups.POINT, StepGroups.WRITES, "scans", StepGroups.OTHER);
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"rules\": [{\"match\": \"(\", \"group\": \"x\"}]}", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> StepGroups.read(bad)).isInstanceOf(BadInputException.class).hasMessageContaining("bad.json")
        .hasMessageContaining("not a regular expression");
    Path unknown = dir.resolve("unknown.json");
    Files.writeString(unknown, "{\"groups\": {}}", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> StepGroups.read(unknown)).isInstanceOf(BadInputException.class).hasMessageContaining("unknown.json");
  }

  @Test
  void aRunsDateIsItsUtcDayWhateverTheTimeZoneOfTheMachineAndTheBaseDefaultsToTheFirstVersion() {
    java.time.Instant lateEvening = java.time.Instant.parse("2026-11-30T23:59:59Z");
    assertThat(Trend.utcDate(java.sql.Timestamp.from(lateEvening))).isEqualTo("2026-11-30");
    assertThat(Trend.utcDate(lateEvening.plusSeconds(1))).isEqualTo("2026-12-01");
    add("2026-12-01", "x", 10, 11);
    add("2026-11-30", "x", 10, 11);
    TrendReport report = analyse(TrendRequest.of(TrendRequest.BY_DATE, null, "qps"));
    assertThat(report.versions()).containsExactly("2026-11-30", "2026-12-01");
    assertThat(report.base()).isEqualTo("2026-11-30");
  }

  @Test
  void mytoolsNamesFallIntoTheStudysFiveGroupsAndOtherNamesKeepTheRules() {
    StepGroups groups = StepGroups.builtIn();
    Map<String, List<String>> expected = Map.of(
        StepGroups.POINT_1, List.of("point-query_range=100", "point-query.pre_range=100", "hot-points_range=100",
            "points-covered-pk_range=100", "points-covered-si_range=100", "points-notcovered-pk_range=100",
            "points-notcovered-si_range=100", "point-query.pre_range=100_dop=2", "point-query_range=100_dop=8_pk=0"),
        StepGroups.POINT_2, List.of("random-points_range=10", "random-points_range=100", "random-points_range=1000",
            "random-points.pre_range=100", "random-points_range=1000_dop=16"),
        StepGroups.RANGE_1, List.of("range-covered-pk_range=100", "range-covered-si_range=100",
            "range-notcovered-pk_range=100", "range-notcovered-si_range=100", "scan_range=100",
            "full-scan.pre_range=100", "read-only-simple_range=1000"),
        StepGroups.RANGE_2, List.of("read-only_range=10", "read-only_range=100", "read-only_range=10000",
            "read-only.pre_range=10000", "read-only-sum_range=1000", "read-only-order_range=1000",
            "read-only-distinct_range=1000", "read-only-count_range=1000"),
        StepGroups.WRITES, List.of("read-write_range=10", "read-write_range=100", "write-only_range=10000",
            "update-inlist_range=100", "update-index_range=100", "update-nonindex_range=100", "update-one_range=100",
            "update-zipf_range=100", "delete_range=100", "insert_range=100", "update-index_range=100_pk=0"));
    expected.forEach((group, steps) -> steps.forEach(s -> assertThat(groups.groupOf(s)).as(s).isEqualTo(group)));
    // Not a mytools name, or an unknown test type: the general rules.
    assertThat(groups.groupOf("scan_range")).isEqualTo(StepGroups.RANGE);
    assertThat(groups.groupOf("read-only")).isEqualTo(StepGroups.OTHER);
    assertThat(groups.groupOf("read-only_range=10_dop=x")).isEqualTo(StepGroups.OTHER);
    // An unknown test type: "range" comes before "point" and "lookup" in the general rules.
    assertThat(groups.groupOf("select-lookup_range=100")).isEqualTo(StepGroups.RANGE);
    assertThat(groups.groupOf("Point-Query_range=100")).as("case-insensitive, as every rule").isEqualTo(StepGroups.POINT_1);
    assertThat(List.of(StepGroups.WRITES, StepGroups.RANGE_2, StepGroups.POINT_2, StepGroups.RANGE_1, StepGroups.POINT_1,
        StepGroups.OTHER, "mine").stream().sorted(StepGroups.order())).containsExactly(StepGroups.POINT_1,
        StepGroups.POINT_2, StepGroups.RANGE_1, StepGroups.RANGE_2, StepGroups.WRITES, "mine", StepGroups.OTHER);
  }

  @Test
  void aGroupsFileStillOverridesTheStudysGroups() throws Exception {
    Path file = dir.resolve("study.yaml");
    Files.writeString(file, "steps: {scan_range=100: scans}\nrules:\n  - {match: '^read-only', group: read-only}\n",
        StandardCharsets.UTF_8);
    StepGroups groups = StepGroups.read(file);
    assertThat(groups.groupOf("scan_range=100")).isEqualTo("scans");
    assertThat(groups.groupOf("read-only-sum_range=1000")).isEqualTo("read-only");
    assertThat(groups.groupOf("insert_range=100")).isEqualTo(StepGroups.WRITES);
  }

  @Test
  void metricsParseWithTheirDirectionAndUnits() {
    assertThat(TrendMetric.parse("p999_s").quantile()).isEqualTo(0.999);
    assertThat(TrendMetric.parse("p99_s").stepMetric()).isEqualTo("latency_p99");
    assertThat(TrendMetric.parse("P50_S").higherIsBetter()).isFalse();
    assertThat(TrendMetric.parse("qps").higherIsBetter()).isTrue();
    assertThat(TrendMetric.parse("mean_s").convert(2, "ms")).isEqualTo(0.002);
    assertThat(TrendMetric.parse("mean_s").convert(2, "%")).isNaN();
    assertThatThrownBy(() -> TrendMetric.parse("latency")).isInstanceOf(BadInputException.class).hasMessageContaining("p99_s");
    assertThatThrownBy(() -> TrendMetric.parse("p0_s")).isInstanceOf(BadInputException.class);
  }
}
