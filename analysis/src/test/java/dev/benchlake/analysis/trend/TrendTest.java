package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.testing.BrowserPage;
import dev.benchlake.core.testing.Golden;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The trend end to end on {@link TrendFixture}: golden trend.json and trend.md, and trend.html in a browser. */
@org.junit.jupiter.api.Tag("integration")
class TrendTest extends SparkTestBase {
  private static Warehouse warehouse;

  @BeforeAll
  static void writeWarehouse() throws Exception {
    Path root = Files.createTempDirectory("benchlake-trend");
    root.toFile().deleteOnExit();
    warehouse = TrendFixture.write(spark, root.resolve("warehouse").toString());
  }

  @Test
  void qpsMatchesTheGoldenFilesAndRendersInABrowser() throws Exception {
    TrendReport report = Trend.run(warehouse, TrendRequest.of("db_major", "11", "qps"));
    Golden.check(TrendTest.class, "qps.trend.json", TrendJson.write(report));
    Golden.check(TrendTest.class, "qps.trend.md", TrendMarkdown.write(report));
    Golden.failIfUpdated("qps");

    StepTrend ranges = step(report, "select_random_ranges");
    assertThat(ranges.noisy()).isTrue();
    assertThat(ranges.group()).isEqualTo(StepGroups.RANGE);
    assertThat(step(report, "oltp_point_select").noisy()).isFalse();
    assertThat(report.flags()).anySatisfy(f -> {
      assertThat(f.step()).isEqualTo("oltp_update_index");
      assertThat(f.kind()).isEqualTo("regression");
      assertThat(f.from() + "→" + f.to()).isEqualTo("12→13");
    });
    assertThat(step(report, "point-select").at("12").value()).as("throughput of the task runs").isNotNull();
    assertThat(step(report, "oltp_delete").versions().stream().map(VersionFigure::relative)).allMatch(r -> r == null);
    JsonNode json = Json.mapper().readTree(TrendJson.write(report));
    assertThat(json.toString()).doesNotContain("NaN").doesNotContain("Infinity");
    assertThat(fields(json)).startsWith("by", "base", "metric");
    assertThat(fields(json.get("steps").get(0))).startsWith("step", "group", "values", "relative", "ci95");
    assertThat(json.get("steps").get(0).has("noisy")).isTrue();
    assertThat(fields(json.get("groups").get(0))).startsWith("group", "geomean");

    Path out = Path.of("target", "reports", "trend");
    TrendFiles.write(report, Provenance.of(KernelWarehouse.of(warehouse), "trend", List.of("--warehouse", warehouse.root(), "--by", "db_major",
        "--base", "11", "--metric", "qps", "--out", out.toString())), out);
    BrowserPage page = BrowserPage.render(out.resolve(TrendFiles.HTML), "trend-report", 1366, 3600);
    // The groups chart and one per group: point query, range query, writes, other.
    page.assertRenderedCleanly(1 + report.groups().size());
    assertThat(report.groups()).hasSize(4);
    assertThat(page.markup()).contains("≈ noisy").contains("regression").contains("oltp_update_index");
  }

  /**
   * Issue 29 item 3 through the command: oltp_update_index's qps drops 20 % at 13 (a change point),
   * so the gate fails with the newest two versions (13, 14) and passes with the newest one; the
   * reports are written either way.
   */
  @Test
  void theChangePointGateExitsThreeOnABadShiftInTheNewestWindowAndStillWritesTheReports(
      @org.junit.jupiter.api.io.TempDir Path out) {
    List<String> args = List.of("--warehouse", warehouse.root(), "--by", "db_major", "--metric", "qps",
        "--fail-on", "change-point");
    dev.benchlake.core.testing.CommandRun two = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.analysis.cli.TrendCommand(), concat(args, "--window", "2", "--out", out.resolve("two").toString()));
    assertThat(two.exitCode()).as(two.stderr()).isEqualTo(dev.benchlake.core.cli.ExitCode.REGRESSION);
    assertThat(two.stderr().lines().toList()).singleElement().asString()
        .startsWith("benchlake trend: change point: step oltp_update_index at db_major 13, qps 5055 → 4032 1/s")
        .contains("(ratio 0.798, -20.2%, beyond the ±5% margin; higher is better; p = 0.006)");
    assertThat(out.resolve("two").resolve(TrendFiles.JSON)).exists();
    dev.benchlake.core.testing.CommandRun one = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.analysis.cli.TrendCommand(), concat(args, "--out", out.resolve("one").toString()));
    assertThat(one.exitCode()).as(one.stderr()).isZero();
    assertThat(one.stderr()).isEmpty();
    assertThat(out.resolve("one").resolve(TrendFiles.MARKDOWN)).exists();
  }

  /** Issue 29.2/29.3: history writes its site from the same analysis, and its gate is trend's. */
  @Test
  void historyWritesItsSiteAndFailsOnTheSameChangePointAsTrend(@org.junit.jupiter.api.io.TempDir Path out)
      throws Exception {
    Path site = out.resolve("site");
    dev.benchlake.core.testing.CommandRun history = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.analysis.cli.HistoryCommand(), List.of("--warehouse", warehouse.root(), "--by", "db_major",
            "--metric", "qps", "--fail-on", "change-point", "--window", "2", "--out", site.toString()));
    assertThat(history.exitCode()).as(history.stderr()).isEqualTo(dev.benchlake.core.cli.ExitCode.REGRESSION);
    assertThat(history.stderr().lines().toList()).singleElement().asString()
        .startsWith("benchlake history: change point: step oltp_update_index at db_major 13, qps 5055 → 4032 1/s");
    JsonNode json = Json.mapper().readTree(site.resolve(dev.benchlake.analysis.history.HistorySite.JSON).toFile());
    try (java.util.stream.Stream<Path> pages = java.nio.file.Files.list(site.resolve("steps"))) {
      assertThat(pages.count()).isEqualTo(json.get("steps").size());
    }
    assertThat(history.stdout()).startsWith("History of " + json.get("steps").size() + " steps along ")
        .contains(site.resolve("index.html").toString());
    assertThat(java.nio.file.Files.readString(site.resolve("index.html"))).contains("oltp_update_index")
        .contains("db_major in its order (evenly spaced)");

    dev.benchlake.core.testing.CommandRun typo = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.analysis.cli.HistoryCommand(), List.of("--warehouse", warehouse.root(), "--fail-on",
            "changepoint", "--out", out.resolve("typo").toString()));
    assertThat(typo.exitCode()).isEqualTo(dev.benchlake.core.cli.ExitCode.BAD_INPUT);
    assertThat(typo.stderr().strip()).endsWith("--fail-on 'changepoint' is not change-point, the one gate of history");
    assertThat(out.resolve("typo")).doesNotExist();
  }

  private static List<String> concat(List<String> first, String... more) {
    List<String> all = new java.util.ArrayList<>(first);
    all.addAll(List.of(more));
    return all;
  }

  @Test
  void latencyIsBetterWhenLowerAndComesFromTasksAndStepMetrics() throws Exception {
    TrendReport report = Trend.run(warehouse, TrendRequest.of("db_major", "11", "p99_s"));
    Golden.check(TrendTest.class, "p99.trend.json", TrendJson.write(report));
    Golden.check(TrendTest.class, "p99.trend.md", TrendMarkdown.write(report));
    Golden.failIfUpdated("p99_s");
    assertThat(report.higherIsBetter()).isFalse();
    assertThat(report.unit()).isEqualTo("s");
    // sysbench's p99 in ms, as seconds: 0.2 ms·10000/qps at 11.
    assertThat(step(report, "oltp_point_select").at("11").value()).isCloseTo(2e-4, within(2e-6));
    // The task runs' latency grows by a fifth from 11 to 12: more than the change, the tail of 150 tasks a run is
    // noise; the median shows it, as a regression for a latency.
    assertThat(step(report, "point-select").at("12").relative()).isGreaterThan(1.05);
    assertThat(step(report, "point-select").noisy()).isTrue();
    TrendReport median = Trend.run(warehouse, TrendRequest.of("db_major", "11", "p50_s").withWhere("workload=loadgen"));
    assertThat(step(median, "point-select").at("12").relative()).isCloseTo(1.2, within(0.05));
    assertThat(median.flags()).singleElement().satisfies(f -> {
      assertThat(f.step()).isEqualTo("point-select");
      assertThat(f.kind()).isEqualTo("regression");
      assertThat(f.change()).isGreaterThan(1);
    });
    // The step_metrics p99 falls as qps rises: improvements.
    assertThat(report.flags()).filteredOn(f -> f.step().equals("oltp_point_select"))
        .allSatisfy(f -> assertThat(f.kind()).isEqualTo("improvement"));
  }

  @Test
  void badRequestsAreBadInput() {
    assertThatThrownBy(() -> Trend.run(warehouse, TrendRequest.of("db_major", "10", "qps")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("--base 10 is not a value of db_major")
        .hasMessageContaining("11, 12, 13, 14");
    assertThatThrownBy(() -> Trend.run(warehouse, TrendRequest.of("os", "linux", "qps")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("no selected run has a value for --by os");
    assertThatThrownBy(() -> Trend.run(warehouse, TrendRequest.of("db_major", "11", "qps").withWhere("workload=tpcc")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("matches --where");
    assertThatThrownBy(() -> Trend.run(warehouse, TrendRequest.of("db_major", "11", "p90_s").withWhere("workload=sysbench")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("latency_p90");
  }

  @Test
  void whereSelectsRunsAndTheReportSaysSo() {
    TrendReport report = Trend.run(warehouse, TrendRequest.of("db_major", "11", "tps").withWhere("workload=loadgen"));
    assertThat(report.where()).isEqualTo("workload=loadgen");
    // update-index has one successful task in one run: no throughput, so no figure at all.
    assertThat(report.steps()).extracting(StepTrend::step).containsExactly("point-select");
    assertThat(report.versions()).containsExactly("11", "12", "13");
    assertThat(report.messages()).anyMatch(m -> m.contains("lg-13-1") && m.contains("no throughput"));
  }

  @Test
  void byDateTheVersionIsTheUtcDayARunStartedAndTheFirstDayIsTheBase() {
    // The fixture's runs all started at its ingest instant: one day, the base.
    TrendReport report = Trend.run(warehouse, TrendRequest.of(TrendRequest.BY_DATE, null, "qps").withWhere("workload=sysbench"));
    String day = "2026-01-01";
    assertThat(report.versions()).containsExactly(day);
    assertThat(report.base()).isEqualTo(day);
    assertThat(report.steps()).allSatisfy(s -> assertThat(s.changePoints()).isEmpty());
  }

  private static StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  private static List<String> fields(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
