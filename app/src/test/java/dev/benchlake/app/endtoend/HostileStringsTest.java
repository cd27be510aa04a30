package dev.benchlake.app.endtoend;

import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.analysis.compare.CompareJson;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.compare.ComparisonReport;
import static dev.benchlake.analysis.report.MarkdownCodeSpans.CODE_SPAN;
import static dev.benchlake.analysis.report.MarkdownCodeSpans.visible;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.CompareHtml;
import dev.benchlake.analysis.html.PageAssets;
import dev.benchlake.core.Json;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strings that attack each output format, in step names, labels (and so selectors), run ids,
 * SQLSTATEs and error messages, through the real chain: loadgen's run-directory contract → ingest
 * → warehouse → compare → report.json and report.md. The warehouse stores each string unchanged
 * (the tasks.csv contract writes CR/LF in a field as a space: no hostile string here has one, those
 * are covered by analysis's MarkdownProperties); report.json gives each back exactly after
 * parsing and holds no raw control character; report.md shows each inside a code span (where HTML
 * is not rendered), breaks no line and no table row; report.html holds none of them as markup (its
 * rendering in a browser is CompareHtmlTest's).
 */
@org.junit.jupiter.api.Tag("integration")
class HostileStringsTest extends SparkTestBase {
  /** HTML and JavaScript, for any viewer that renders what it is given. */
  static final String HTML = "<script>alert(\"x\")</script><img src=x onerror=alert(1)>";
  /** Markdown: a table cell break, a fence, emphasis, a link, a heading. */
  static final String MARKDOWN = "a|b `c` ``d`` **e** [f](javascript:alert(1)) # g \\|";
  /** JSON: a quote, a backslash, control characters that must be escaped, an ANSI escape. */
  static final String JSON = "q\"b\\s\u0001\u001f\u001b[31mred\u2028\u2029\u0000end";
  /** SQL: quotes and a statement terminator; and CSV: commas and quotes. */
  static final String SQL = "'; DROP TABLE tasks; -- \"O'Brien\", x,y";

  static final List<String> STEPS = List.of(HTML, MARKDOWN, JSON, SQL);

  @TempDir
  static Path tmp;

  private static Warehouse warehouse;
  private static ComparisonReport report;
  private static String json;
  private static String markdown;
  private static String html;

  /** A run directory as loadgen writes it (core's contract classes), with hostile text everywhere. */
  private static Path run(String runId, String group, int salt) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("run-" + salt));
    new RunManifest(RunManifest.FORMAT_VERSION, runId, new RunManifest.Tool("benchlake-loadgen", "test"),
        "2026-01-02T03:04:05Z", "2026-01-02T03:05:05Z", 1_700_000_000_000_000_000L, RunStatus.COMPLETE, null,
        new RunManifest.Workload("custom", STEPS, new TreeMap<>(Map.of("note", SQL))),
        new RunManifest.Mode("closed", 2, 40L, null, null, null, null, null),
        new RunManifest.Target("jdbc:postgresql://127.0.0.1:5432/postgres", true, "PostgreSQL 17.2", 17, new TreeMap<>()),
        new RunManifest.Client("host", "Linux", "6.1", "amd64", 2, null, "17"),
        new TreeMap<>(Map.of("grp", group, "note", HTML + MARKDOWN)), null)
        .writeAtomically(RunDirectory.manifest(dir));
    StringBuilder csv = new StringBuilder(TaskCsv.HEADER).append('\n');
    long t = 0;
    for (String step : STEPS) {
      for (int i = 0; i < 10; i++) {
        boolean ok = i % 5 != 4;
        long latency = 1_000_000L + 10_000L * ((i * 7 + salt * 3) % 10);
        csv.append(TaskCsv.format(new TaskRecord(step, i % 2, t, t, t, t + latency, 0, false, ok,
            ok ? "" : (i == 4 ? SQL.substring(0, 5) : "<b>|"), ok ? "" : (i == 4 ? JSON : HTML + SQL)))).append('\n');
        t += 2_000_000L;
      }
    }
    Files.writeString(RunDirectory.tasks(dir), csv, StandardCharsets.UTF_8);
    return dir;
  }

  @BeforeAll
  static void ingestAndCompare() throws Exception {
    warehouse = Warehouse.at(spark, tmp.resolve("warehouse").toString());
    List<Path> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String group = i % 2 == 0 ? HTML : MARKDOWN.replace(",", "");
      runs.add(run("run " + i + " " + (i % 2 == 0 ? HTML : SQL.replace(",", "")), group, i));
    }
    Ingest.run(spark, warehouse, IngestRequest.of(runs.toArray(Path[]::new)));
    report = Compare.run(warehouse, CompareRequest.of("grp=" + HTML, "grp=" + MARKDOWN.replace(",", "")));
    json = CompareJson.write(report);
    markdown = CompareMarkdown.write(report);
    html = CompareHtml.write(report, Provenance.of(KernelWarehouse.of(warehouse), "compare",
        List.of("--baseline", "grp=" + HTML, "--candidate", "grp=" + MARKDOWN.replace(",", ""))));
  }

  @Test
  void theWarehouseStoresEveryStringUnchanged() {
    assertThat(warehouse.tasks().select("step").distinct().collectAsList()).extracting(r -> r.getString(0))
        .containsExactlyInAnyOrderElementsOf(STEPS);
    assertThat(warehouse.tasks().where(col("ok").equalTo(false)).select("sqlstate", "error").distinct().collectAsList())
        .extracting(r -> r.getString(0) + "\u0000|" + r.getString(1))
        .containsExactlyInAnyOrder(SQL.substring(0, 5) + "\u0000|" + JSON, "<b>|" + "\u0000|" + HTML + SQL);
    List<Row> runs = warehouse.runs().select("run_id", "labels").collectAsList();
    assertThat(runs).extracting(r -> r.getString(0)).contains("run 0 " + HTML, "run 1 " + SQL.replace(",", ""));
    assertThat(runs).allSatisfy(r -> assertThat(r.<String, String>getJavaMap(1)).containsEntry("note", HTML + MARKDOWN));
  }

  @Test
  void reportJsonGivesEveryStringBackExactlyAndHasNoRawControlCharacter() throws Exception {
    assertThat(json.chars().filter(c -> c < 0x20 && c != '\n')).as("raw control characters").isEmpty();
    JsonNode root = Json.mapper().readTree(json);
    List<String> steps = new ArrayList<>();
    root.get("steps").forEach(s -> steps.add(s.get("step").asText()));
    assertThat(steps).containsExactlyInAnyOrderElementsOf(STEPS);
    assertThat(root.get("baseline").get("selector").asText()).isEqualTo("grp=" + HTML);
    List<String> runIds = new ArrayList<>();
    root.get("baseline").get("runs").forEach(r -> runIds.add(r.asText()));
    assertThat(runIds).containsExactlyInAnyOrder("run 0 " + HTML, "run 2 " + HTML);
    JsonNode errors = root.get("steps").get(0).get("baseline").get("errors_by_code");
    assertThat(errors.has("<b>|")).as(errors.toString()).isTrue();
    assertThat(errors.has(SQL.substring(0, 5))).isTrue();
  }

  @Test
  void reportHtmlHoldsNoHostileStringAsMarkup() {
    // Text goes through the templates' HTML escaping, chart data through ScriptJson (< > & escaped):
    // neither the tags nor a closing </script> can appear as written. The vendored chart libraries
    // build markup of their own (tooltips with <img>): they are set aside, as the page's own code.
    PageAssets assets = PageAssets.get();
    String page = html;
    for (String library : List.of(assets.vega(), assets.vegaLite(), assets.vegaEmbed())) {
      assertThat(page).contains(library);
      page = page.replace(library, "LIBRARY");
    }
    assertThat(page).doesNotContain(HTML).doesNotContain("<img").doesNotContain("<b>")
        .doesNotContain("alert(\"x\")</script>");
    assertThat(page).contains("&lt;script&gt;alert(");
    assertThat(page.chars().filter(c -> c < 0x20 && c != '\n' && c != '\t' && c != '\r')).as("raw control characters")
        .isEmpty();
  }

  /** The text of a code span as a reader sees it: CommonMark's rules, then GFM's {@code \|} in tables. */

  @Test
  void reportMarkdownShowsEveryStringInCodeAndBreaksNoLineOrTableRow() {
    // Nothing hostile outside code spans: take the spans out, and no HTML tag or hostile text remains.
    String outsideCode = CODE_SPAN.matcher(markdown).replaceAll("CODE");
    assertThat(outsideCode).doesNotContain("<script").doesNotContain("<img").doesNotContain("<b>")
        .doesNotContain("DROP TABLE").doesNotContain("javascript:");
    assertThat(markdown.chars().filter(c -> c < 0x20 && c != '\n')).as("raw control characters").isEmpty();

    // Every table row has the number of cells of its header: no hostile '|' or newline split one.
    int cells = -1;
    for (String line : markdown.split("\n", -1)) {
      if (!line.startsWith("|")) {
        cells = -1;
        continue;
      }
      int count = line.split("(?<!\\\\)\\|", -1).length;
      if (cells < 0) {
        cells = count;
      }
      assertThat(count).as(line).isEqualTo(cells);
    }

    // Each step's heading shows the step name itself (its control characters as escapes).
    List<String> headings = markdown.lines().filter(l -> l.startsWith("## Step ")).toList();
    assertThat(headings).hasSize(STEPS.size());
    List<String> shown = new ArrayList<>();
    for (String heading : headings) {
      Matcher m = CODE_SPAN.matcher(heading);
      assertThat(m.find()).as(heading).isTrue();
      shown.add(visible(m));
    }
    assertThat(shown).containsExactlyInAnyOrder(HTML, MARKDOWN, SQL,
        "q\"b\\s\\u0001\\u001f\\u001b[31mred\\u2028\\u2029\\u0000end");
  }
  /** ESC and BEL that would retitle the terminal, ESC that recolours it, CR that overwrites the line, C1's CSI. */
  static final String TERMINAL = "nightly\u001b]0;pwned\u0007\u001b[31mred\rX\u009b2J";

  /**
   * Every line benchlake prints on a terminal escapes the control characters of the data it quotes
   * (dev.benchlake.core.TerminalText): a step named {@link #TERMINAL} (a wide CSV keeps its CR, which
   * tasks.csv writes as a blank), in files under a folder whose name holds an escape sequence, through
   * {@code ingest}, the change-point gate of {@code trend} (its step dropped 30 % at ver 3 of 4: exit 3),
   * {@code runs}, and {@code compare} of this class's warehouse: no byte of stdout or stderr is a
   * control character but the layout's (newline, tab), and the step is shown escaped. The gate printed
   * it raw.
   */
  @Test
  void everyTerminalLineEscapesTheControlCharactersOfTheDataItQuotes() throws Exception {
    Path folder = Files.createDirectories(tmp.resolve("nightly\u001b[2J"));
    Path mapping = Files.writeString(folder.resolve("wide.json"), "{\"layout\": \"wide\", \"columns\": {\"step\": "
        + "\"step\"}, \"metric\": \"qps\", \"unit\": \"1/s\", \"column_label\": \"ver\"}");
    List<String> files = new ArrayList<>();
    for (int repeat = 1; repeat <= 3; repeat++) {
      double noise = 1 + 0.01 * (repeat - 2);
      String step = "\"" + TERMINAL + "\"";
      files.add(Files.writeString(folder.resolve("night" + repeat + ".csv"), "step,1,2,3,4\n" + step + ","
          + String.join(",", java.util.stream.Stream.of(1000, 1000, 700, 700).map(q -> String.valueOf(q * noise))
          .toList()) + "\n", StandardCharsets.UTF_8).toString());
    }
    String wh = tmp.resolve("terminal-warehouse").toString();
    List<String> ingestArgs = new ArrayList<>(List.of("--warehouse", wh, "--mapping", mapping.toString()));
    ingestArgs.addAll(files);
    dev.benchlake.core.testing.CommandRun ingest = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.ingest.cli.IngestCommand(), ingestArgs);
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    dev.benchlake.core.testing.CommandRun gate = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.analysis.cli.TrendCommand(), "--warehouse", wh, "--by", "ver", "--metric", "qps", "--fail-on",
        "change-point", "--window", "2", "--out", tmp.resolve("terminal-trend").toString());
    assertThat(gate.exitCode()).as(gate.stderr()).isEqualTo(dev.benchlake.core.cli.ExitCode.REGRESSION);
    dev.benchlake.core.testing.CommandRun runs = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.warehouse.cli.RunsCommand(), "--warehouse", wh);
    dev.benchlake.core.testing.CommandRun compare = dev.benchlake.core.testing.CommandRun.of(
        new dev.benchlake.analysis.cli.CompareCommand(), "--warehouse", warehouse.root(), "--baseline", "grp=" + HTML,
        "--candidate", "grp=" + MARKDOWN.replace(",", ""), "--out", tmp.resolve("terminal-compare").toString());
    assertThat(compare.exitCode()).as(compare.stderr()).isZero();

    String shownStep = "nightly\\u001b]0;pwned\\u0007\\u001b[31mred\\rX\\u009b2J";
    assertThat(gate.stderr().lines().toList()).singleElement().asString()
        .startsWith("benchlake trend: change point: step " + shownStep + " at ver 3");
    assertThat(ingest.stderr()).contains("nightly\\u001b[2J/night1.csv: accepted 2, rejected 0");
    assertThat(compare.stdout()).contains("\\u0001\\u001f\\u001b[31mred");
    for (dev.benchlake.core.testing.CommandRun run : List.of(ingest, gate, runs, compare)) {
      assertThat((run.stdout() + run.stderr()).chars().filter(c -> c != '\n' && c != '\t'
          && dev.benchlake.core.TerminalText.isControl((char) c))
          .mapToObj(c -> String.format(java.util.Locale.ROOT, "U+%04X", c)).toList())
          .as("raw control characters in %s", run.both()).isEmpty();
    }
  }
}
