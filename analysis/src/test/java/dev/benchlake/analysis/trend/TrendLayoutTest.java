package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A version study's report reads at 48 steps and 6 majors (issue 47 item 5): on {@link SixMajorsStudy}
 * (11 to 16 in a duet run until decided, 6 rounds, steps dropping out once decided), trend.md gives
 * the groups first, then each major's calls, then one line per step with each major's ratio and
 * call (the intervals in a table of their own and in trend.json), the pairs once in one table with
 * each step's rounds in words, never a step's run ids again; trend.html's cells give the interval as
 * a tooltip; stdout adds each major's calls. The two-major study keeps its intervals beside each
 * figure. No Spark: about a second of CPU.
 */
class TrendLayoutTest {
  private static final Provenance PROVENANCE = new Provenance("benchlake study versions", "wh", 1, "test");

  @Test
  void sixMajorsReadAsGroupsThenEachMajorsCallsThenOneCompactLinePerStep() throws IOException {
    TrendReport report = SixMajorsStudy.report();
    String md = TrendMarkdown.write(report);
    Path out = Path.of("target", "reports", "trend-six-majors");
    TrendFiles.write(report, PROVENANCE, out);

    int groups = md.indexOf("## Groups");
    int calls = md.indexOf("## Calls of the steps against 11, by version");
    int firstSteps = md.indexOf("## Point query, part 1");
    assertThat(groups).as("the groups first").isPositive();
    assertThat(calls).as("then each major's calls").isGreaterThan(groups).isLessThan(firstSteps);
    // Each verdict's row: its count at every major, counted here from the steps, the warm-up left out.
    for (Verdict v : Verdict.values()) {
      StringBuilder row = new StringBuilder("| " + v.jsonName() + " |");
      long all = 0;
      for (String major : SixMajorsStudy.MAJORS.subList(1, 6)) {
        long n = calls(report, major, v);
        row.append(' ').append(n).append(" |");
        all += n;
      }
      assertThat(md.substring(calls, firstSteps)).contains(row + "\n");
      assertThat(all).as(v.jsonName()).isEqualTo(report.steps().stream()
          .filter(s -> !s.group().equals(StepGroups.WARM_UP)).flatMap(s -> s.versions().stream())
          .filter(f -> f.verdict() == v).count());
    }

    // One line per step: its ratio and call at each major, no interval; the intervals once, below.
    List<String> stepRows = stepRows(md.substring(firstSteps, md.indexOf("## Intervals against 11")));
    assertThat(stepRows).hasSize(48);
    assertThat(stepRows).allSatisfy(row -> assertThat(row).doesNotContain("[").doesNotContain("needs"));
    assertThat(stepRows.stream().mapToInt(String::length).max().orElseThrow()).as("a row of a screen's width")
        .isLessThan(160);
    String details = md.substring(md.indexOf("## Intervals against 11"));
    TrendReport.VersionFigure scan16 = step(report, "scan_range=100").at("16");
    assertThat(details).contains("| `scan_range=100` | ").contains(TrendMarkdown.interval(scan16.ci95()));
    assertThat(md).containsOnlyOnce("The 90% interval lies within the ±5% margin, but not after Holm's correction");

    // The pairs once: 30 rows, each run id in the pairs table and the runs table only.
    String pairs = md.substring(md.indexOf("## Pairs"), md.indexOf("## Runs"));
    for (String run : report.runs().get("16")) {
      assertThat(count(md, run)).as("run %s: the pairs table and the runs table", run).isEqualTo(2);
    }
    assertThat(pairs).contains("- 16 against 11: 6 pairs, 16 of 48 steps paired by all of them, the others below;"
        + " 11's other 24 runs are the other versions' partners.\n")
        .contains("| 12 | round=1, pair=11v12 | `", "| 16 | round=6, pair=11v16 | `")
        .contains(": 3 of 6 pairs (round=1–3).\n", ": 5 of 6 pairs (round=1–5).\n")
        .contains("- `insert_range=100` at 13: 5 of 6 pairs (round=1–3, 5–6). Dropped for want of a partner: ");
    assertThat(pairs.lines().count()).as("a table of 30 pairs and a few lines").isLessThan(50);
    // The confounders once per kind, naming each step with its versions; the figures in trend.json.
    String maintenance = md.substring(md.indexOf("## Table maintenance"), md.indexOf("## Pairs"));
    assertThat(maintenance).contains("- dead_tuples: `delete_range=100` (14, 15, 16 against 11);"
        + " `update-index_range=100` (14, 15, 16 against 11); the figures are in").doesNotContain("dead-tuple fraction");
    assertThat(md).as("the step's line marks it").containsPattern("\\| `delete_range=100`( ≈)? \\| [^\n]* ⚠ \\|\n");
    // Before: 381 lines, 588 KB (each step's pairs' run ids and the base's 24 other runs again, per version).
    assertThat(md.lines().count()).as("trend.md's lines").isLessThan(300);
    assertThat(md.length()).as("trend.md's characters").isLessThan(60_000);

    // trend.json keeps every field and adds each major's calls; trend.html's cells carry the interval.
    JsonNode json = Json.mapper().readTree(Files.readString(out.resolve(TrendFiles.JSON)));
    for (String field : List.of("by", "base", "metric", "unit", "higher_is_better", "design", "versions", "steps",
        "groups", "flags", "runs", "alpha", "margin", "correction", "change_point_alpha", "messages", "warnings",
        "methods")) {
      assertThat(json.has(field)).as(field).isTrue();
    }
    JsonNode step = json.get("steps").get(report.steps().indexOf(step(report, "scan_range=100")));
    assertThat(step.get("ci95").get("16").get(0).asDouble()).isEqualTo(scan16.ci95().low(),
        org.assertj.core.data.Offset.offset(1e-5));
    assertThat(json.get("calls_against_base").get("16").get("slower").asLong())
        .isEqualTo(calls(report, "16", Verdict.SLOWER)).isPositive();
    assertThat(json.get("calls_against_base").get("12").get("faster").asLong()).isEqualTo(calls(report, "12",
        Verdict.FASTER));
    assertThat(json.get("calls_against_base").has("11")).isFalse();
    String html = Files.readString(out.resolve(TrendFiles.HTML));
    assertThat(html).contains("<table class=\"numbers calls-by-version\">")
        .contains(" title=\"" + TrendMarkdown.ratio(scan16.relative(), scan16.ci95()) + " "
            + TrendMarkdown.interval(scan16.ci95()));

    List<String> lines = TrendMarkdown.terminalLines(report);
    int byVersion = lines.indexOf("Calls of the steps against 11, by version:");
    assertThat(byVersion).as("after the groups").isGreaterThan(lines.indexOf(lines.stream()
        .filter(l -> l.startsWith("Groups")).findFirst().orElseThrow()));
    assertThat(lines.subList(byVersion + 1, lines.size())).containsExactly(
        SixMajorsStudy.MAJORS.subList(1, 6).stream().map(m -> "  " + m + ": " + String.join(", ", java.util.Arrays
            .stream(Verdict.values()).filter(v -> calls(report, m, v) > 0).map(v -> calls(report, m, v) + " "
                + v.jsonName()).toList())).toArray(String[]::new));
  }

  /**
   * The two-major study (11 and 16) keeps each figure's interval beside it, with no table of
   * intervals and no calls by version, which the headline gives.
   */
  @Test
  void twoMajorsKeepTheIntervalBesideEachFigure() {
    TrendReport report = SixMajorsStudy.report(List.of("11", "16"));
    String md = TrendMarkdown.write(report);
    assertThat(md).doesNotContain("## Intervals against").doesNotContain("by version");
    List<String> stepRows = stepRows(md.substring(md.indexOf("## Point query, part 1"), md.indexOf("## Pairs")));
    assertThat(stepRows).hasSize(48).allSatisfy(row -> assertThat(row).contains("["));
    assertThat(TrendMarkdown.terminalLines(report)).noneMatch(l -> l.startsWith("Calls of the steps"));
    assertThat(md).contains("- 16 against 11: 6 pairs, 16 of 48 steps paired by all of them, the others below.\n");
  }

  /** How many steps {@code major} has called {@code verdict} against 11, the warm-up left out. */
  private static long calls(TrendReport report, String major, Verdict verdict) {
    return report.steps().stream().filter(s -> !s.group().equals(StepGroups.WARM_UP))
        .filter(s -> s.at(major).verdict() == verdict).count();
  }

  private static List<String> stepRows(String section) {
    List<String> rows = new ArrayList<>();
    section.lines().filter(l -> l.startsWith("| `")).forEach(rows::add);
    return rows;
  }

  private static TrendReport.StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  private static int count(String text, String what) {
    Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
