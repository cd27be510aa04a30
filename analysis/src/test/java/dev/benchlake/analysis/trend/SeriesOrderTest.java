package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Issue 29 item 4: the values of --by in an order that means something, and a missed night shown. */
class SeriesOrderTest {
  private final List<Observation> observations = new ArrayList<>();
  private final Map<String, List<String>> runs = new TreeMap<>();

  private void add(String version, double... values) {
    for (int i = 0; i < values.length; i++) {
      String run = version + "-" + (i + 1);
      observations.add(new Observation(run, version, "point-select", values[i]));
      runs.computeIfAbsent(version, v -> new ArrayList<>()).add(run);
    }
  }

  private TrendReport analyse(TrendRequest request, Map<String, String> orderKeys) {
    return TrendAnalysis.analyse(observations, runs, orderKeys, request, List.of(), null);
  }

  @Test
  void timestampsSortByTheTimeTheyNameNotByTheirText() {
    // 23:00 at UTC−5 is 04:00 UTC the next day: after 01:00 UTC, though its text sorts first.
    add("2026-11-04T23:00:00-05:00", 100, 101);
    add("2026-11-05T01:00:00Z", 110, 111);
    add("2026-11-05T06:00:00Z", 120, 121);
    assertThat(analyse(TrendRequest.of("started", null, "qps"), Map.of()).versions())
        .containsExactly("2026-11-05T01:00:00Z", "2026-11-04T23:00:00-05:00", "2026-11-05T06:00:00Z");
  }

  @Test
  void versionsStillSortAsVersions() {
    add("10", 1, 1);
    add("9.6", 1, 1);
    add("v14.10", 1, 1);
    add("v14.9", 1, 1);
    assertThat(SeriesOrder.sort(TrendRequest.of("v", null, "qps"), runs.keySet(), Map.of(), List.of()))
        .containsExactly("9.6", "10", "v14.9", "v14.10");
    assertThat(SeriesOrder.sort(TrendRequest.of("v", null, "qps"), List.of("14.10", "14.9", "9.6"), Map.of(), List.of()))
        .containsExactly("9.6", "14.9", "14.10");
  }

  @Test
  void commitsWithoutOrderByFailWithOneLineThatSaysToAddIt() {
    add("3f2a9c1", 100, 101);
    add("a81be07", 100, 101);
    add("0c55d2e", 100, 101);
    TrendRequest request = TrendRequest.of("commit", null, "qps");
    assertThatThrownBy(() -> SeriesOrder.sort(request, runs.keySet(), Map.of(), List.of("commit", "commit_time", "os")))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--by commit has values that are neither dates nor versions (0c55d2e, 3f2a9c1, a81be07), so they"
            + " have no order of their own: add --order-by LABEL, a label or runs column that orders them (e.g. --by"
            + " commit --order-by commit_time, or --order-by started_at: when the runs began; labels the runs have:"
            + " commit_time, os), or --base VALUE to compare each against it, or use --by date");
    assertThatThrownBy(() -> analyse(request, Map.of())).isInstanceOf(BadInputException.class)
        .hasMessageContaining("add --order-by LABEL");
  }

  @Test
  void orderByGivesTheOrderAsTimesOrAsNumbers() {
    add("3f2a9c1", 100, 101);
    add("a81be07", 100, 101);
    add("0c55d2e", 100, 101);
    TrendRequest request = TrendRequest.of("commit", null, "qps").withOrderBy("commit_time");
    TrendReport report = analyse(request, Map.of("3f2a9c1", "2026-11-03T10:00:00Z", "a81be07", "2026-11-01T09:00:00+01:00",
        "0c55d2e", "2026-11-02 00:00:00.5"));
    assertThat(report.versions()).containsExactly("a81be07", "0c55d2e", "3f2a9c1");
    assertThat(report.base()).isEqualTo("a81be07");
    assertThat(TrendMarkdown.write(report)).contains("- Order: commit by commit_time (--order-by).\n");
    assertThat(TrendJson.tree(report).get("order_by").asText()).isEqualTo("commit_time");
    // Build numbers: as numbers, not as text.
    assertThat(SeriesOrder.sort(request, runs.keySet(), Map.of("3f2a9c1", "10", "a81be07", "9", "0c55d2e", "100"), List.of()))
        .containsExactly("a81be07", "3f2a9c1", "0c55d2e");
    assertThatThrownBy(() -> SeriesOrder.sort(request, runs.keySet(), Map.of("3f2a9c1", "10"), List.of()))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--order-by commit_time: the runs of commit 0c55d2e, a81be07 have no commit_time; give every run that"
            + " label, or order by another");
  }

  /**
   * Issue 47 item 5: names (configurations, settings profiles) with a base are each compared against
   * it, as before issue 29; only what needs a series, change points and the consecutive calls, is
   * left out, and the report says so.
   */
  @Test
  void namesWithABaseAreEachComparedAgainstItWithoutASeries() {
    add("stock", 100, 102, 101, 99);
    add("jit-off", 120, 121, 119, 122);
    add("huge-pages", 100, 101, 100, 102);
    add("tuned", 80, 81, 79, 80);
    TrendReport report = analyse(TrendRequest.of("profile", "stock", "qps"), Map.of());
    assertThat(report.versions()).containsExactly("stock", "huge-pages", "jit-off", "tuned");
    assertThat(report.ordered()).isFalse();
    StepTrend step = report.steps().get(0);
    assertThat(step.at("jit-off").verdict()).isEqualTo(dev.benchlake.analysis.stats.Verdict.FASTER);
    assertThat(step.at("tuned").verdict()).isEqualTo(dev.benchlake.analysis.stats.Verdict.SLOWER);
    assertThat(step.at("huge-pages").verdict()).isNotIn(dev.benchlake.analysis.stats.Verdict.FASTER,
        dev.benchlake.analysis.stats.Verdict.SLOWER);
    // jit-off → tuned would be a "change between consecutive values" of an order nobody gave.
    assertThat(report.flags()).isEmpty();
    assertThat(report.steps()).allMatch(s -> s.changePoints().isEmpty());
    assertThat(report.callsBetweenVersions().total()).isZero();
    assertThat(report.messages()).anyMatch(m -> m.startsWith("The values of profile are names with no order of their"
        + " own: each is compared against stock; no change points"));
    assertThat(TrendMarkdown.summary(report)).contains("## Changes between consecutive versions (faster or slower)\n\n"
        + "Not computed: the values are names").contains("## Change points (E-divisive means on the runs' logs, α = 0.01)"
        + "\n\nNot computed");
    // With --order-by they are a series again.
    TrendReport ordered = analyse(TrendRequest.of("profile", "stock", "qps").withOrderBy("rank"),
        Map.of("stock", "1", "huge-pages", "2", "jit-off", "3", "tuned", "4"));
    assertThat(ordered.ordered()).isTrue();
    assertThat(ordered.flags()).isNotEmpty();
  }

  @Test
  void twoValuesOfAnythingWithABaseNeedNoOrder() {
    add("windows", 100, 101);
    add("linux", 100, 101);
    assertThat(analyse(TrendRequest.of("os", "windows", "qps"), Map.of()).versions()).containsExactly("windows", "linux");
  }

  @Test
  void aNightWithoutARunShowsAsAGapInTheTablesTheTextAndTheJson() throws Exception {
    add("2026-11-01", 100, 101);
    add("2026-11-02", 100, 101);
    add("2026-11-05", 100, 101);
    add("2026-11-06", 100, 101);
    add("2026-11-08", 100, 101);
    TrendReport report = analyse(TrendRequest.of(TrendRequest.BY_DATE, null, "qps"), Map.of());
    assertThat(report.gaps()).containsExactly("2026-11-03", "2026-11-04", "2026-11-07");
    String md = TrendMarkdown.write(report);
    assertThat(md).contains("- Order: by date; no run on 2026-11-03 – 2026-11-04 (2 days), 2026-11-07 (a column of its"
        + " own in the tables).\n");
    assertThat(md).contains("| step | 2026-11-01 | 2026-11-02 | 2026-11-03 – 2026-11-04 (2 days) | 2026-11-05 | 2026-11-06"
        + " | 2026-11-07 | 2026-11-08 |");
    assertThat(md).contains("| 2026-11-03 – 2026-11-04 (2 days) | no run |");
    assertThat(md.lines().filter(l -> l.startsWith("| `point-select`")).findFirst().orElseThrow()).contains("| no run |");
    JsonNode json = Json.mapper().readTree(TrendJson.write(report));
    assertThat(json.get("gaps").toString()).isEqualTo("[\"2026-11-03\",\"2026-11-04\",\"2026-11-07\"]");

    runs.clear();
    observations.clear();
    add("2026-11-01", 100, 101);
    add("2026-11-02", 100, 101);
    TrendReport noGap = analyse(TrendRequest.of(TrendRequest.BY_DATE, null, "qps"), Map.of());
    assertThat(TrendJson.tree(noGap).get("gaps").size()).isZero();
    assertThat(TrendMarkdown.write(noGap)).contains("- Order: by date; every day from the first to the last has a run.\n");
  }
}
