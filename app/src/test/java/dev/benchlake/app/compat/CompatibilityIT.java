package dev.benchlake.app.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.core.Json;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.ParquetFooters;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.warehouse.cli.RejectsCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.cli.UpgradeCommand;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Upgrades lose nothing (issue 17): the current build on copies of the frozen fixtures of every
 * earlier release ({@code app/src/test/compat/<release>}, never modified: every test works on a
 * copy in a temporary folder). What a release printed for its warehouse ({@code expected/}) must
 * come back, on its columns, before and after {@code benchlake upgrade}; the columns added since
 * read as null ("not recorded"). Source paths in the warehouse are the fixture machine's: they are
 * compared with what the release printed, never with a path here.
 *
 * <p>The checks of what every release must keep (runs and export before and after the upgrade,
 * its raw run folder ingesting) run on each release; the others, whose code paths do not depend
 * on the release, run on 0.1.0's fixtures only: CI time matters.
 *
 * <p>Commands run in-process on one shared Spark session, except the killed upgrade, which is a
 * real {@code bin/benchlake} process (hence an IT: after {@code mvn package}).
 */
@Tag("integration")
class CompatibilityIT extends SparkTestBase {
  static final Path COMPAT = CompatFixtures.COMPAT;
  static final Path FIXTURE = COMPAT.resolve("0.1.0");
  /** Ingest's mytools fixture tree, which 0.3.0's warehouse holds as it stored it. */
  static final Path MYTOOLS_TREE = COMPAT.getParent().getParent().getParent().getParent()
      .resolve("ingest/src/test/resources/dev/benchlake/ingest/fixtures/mytools");
  /** step_metrics' table health (format 3, issue 15). */
  static final List<String> TABLE_HEALTH = List.of("health_before", "health_after", "tables_autovacuumed",
      "tables_autoanalyzed", "between_steps");
  /** Per release: the columns added after it, per exported table: null on every old row. */
  static final Map<String, Map<String, List<String>>> NEW_COLUMNS = Map.of(
      "0.1.0", Map.of(
          "runs", List.of("server_start"),
          "tasks", List.of(),
          "step_metrics", TABLE_HEALTH,
          "rejects", List.of("error_type", "column")),
      "0.2.0", Map.of(
          "runs", List.of(),
          "tasks", List.of(),
          "step_metrics", TABLE_HEALTH,
          "rejects", List.of(),
          "ingest_files", List.of()),
      "0.3.0", Map.of(
          "runs", List.of(),
          "tasks", List.of(),
          "step_metrics", List.of(),
          "rejects", List.of(),
          "ingest_files", List.of()));
  /** Each release's warehouse format. */
  static final Map<String, Integer> FORMAT = Map.of("0.1.0", 1, "0.2.0", 2, "0.3.0", 4);

  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"0.1.0", "0.2.0", "0.3.0"})
  void runsAndExportGiveBackWhatTheReleasePrintedBeforeAndAfterTheUpgrade(String release) throws IOException {
    Path wh = copy(release, "warehouse", "wh");
    for (int pass = 0; pass < 2; pass++) {
      assertSameRuns(release, wh);
      for (String table : NEW_COLUMNS.get(release).keySet()) {
        assertSameExport(release, wh, table);
      }
      if (pass == 0) {
        CommandRun upgrade = CommandRun.of(new UpgradeCommand(), "--warehouse", wh.toString());
        assertThat(upgrade.exitCode()).as(upgrade.stderr()).isZero();
        if (FORMAT.get(release) < 3) {
          assertThat(upgrade.stdout()).contains("step_metrics: added columns health_before");
        }
        // Every release's rejects table kept statistics of its raw text: the upgrade turns them off
        // (a metadata-only commit, no new format: ingest would do the same).
        assertThat(upgrade.stdout()).contains("rejects: set " + WarehouseSchema.STATS_COLUMNS_PROPERTY + "=run_id")
            .contains(FORMAT.get(release) == WarehouseFormat.CURRENT ? "" : "format " + FORMAT.get(release) + " -> "
                + WarehouseFormat.CURRENT);
      }
    }
  }

  @Test
  void compareAndTrendRunOnTheOldWarehouseWithoutAnUpgrade() throws IOException {
    Path wh = copy("warehouse", "wh");
    Map<Path, String> before = snapshot(wh);
    CommandRun compare = CommandRun.of(new CompareCommand(), "--warehouse", wh.toString(), "--baseline", "db_major=14",
        "--candidate", "db_major=17", "--out", tmp.resolve("compare").toString());
    assertThat(compare.exitCode()).as(compare.stderr()).isZero();
    assertThat(tmp.resolve("compare/report.json")).isNotEmptyFile();
    CommandRun trend = CommandRun.of(new TrendCommand(), "--warehouse", wh.toString(), "--by", "db_major", "--base", "14",
        "--where", "campaign=compat", "--out", tmp.resolve("trend").toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isZero();
    assertThat(tmp.resolve("trend/trend.json")).isNotEmptyFile();
    assertThat(snapshot(wh)).as("reading changes nothing in the warehouse").isEqualTo(before);
  }

  /**
   * 0.3.0 stored each {@code sb.o.*} file of a mytools folder as a run of its own: the trend of
   * that warehouse must keep working whatever later releases make of such folders.
   */
  @Test
  void theTrendOfAMytoolsTreeAsReleaseZeroThreeStoredItRunsWithoutAnUpgrade() throws IOException {
    Path wh = copy("0.3.0", "warehouse", "wh");
    Map<Path, String> before = snapshot(wh);
    CommandRun trend = CommandRun.of(new TrendCommand(), "--warehouse", wh.toString(), "--by", "db_major", "--base", "14",
        "--where", "campaign=compat-mytools", "--out", tmp.resolve("trend").toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isZero();
    JsonNode report = Json.mapper().readTree(tmp.resolve("trend/trend.json").toFile());
    assertThat(report.toString()).contains("point-query_range=100", "update-index_range=100");
    assertThat(snapshot(wh)).as("reading changes nothing in the warehouse").isEqualTo(before);
  }

  /**
   * The same mytools tree ingested again into 0.3.0's warehouse, where each of its 24 {@code sb.o.*}
   * files is a run: a folder is now one run, of another content key, so it would land a second
   * time. The older runs are found by their files' SHA-256: refused with one line and nothing
   * written; with {@code --replace} the 24 runs give way to one run per folder, the release's other
   * runs untouched, and the trend has a per-run figure and an interval for every group.
   */
  @Test
  void aMytoolsTreeThatReleaseZeroThreeStoredOneRunPerFileIsReplacedByOneRunPerFolderOnlyOnRequest() throws IOException {
    Path wh = copy("0.3.0", "warehouse", "wh");
    Path tree = FileTrees.copy(MYTOOLS_TREE, tmp.resolve("mytools"));
    Map<String, JsonNode> release = expectedRuns("0.3.0");
    List<String> perFile = release.keySet().stream().filter(id -> id.startsWith("mytools-")).toList();
    assertThat(perFile).hasSize(24);
    Map<Path, String> before = snapshot(wh);
    String[] args = {"--warehouse", wh.toString(), "--label", "campaign=compat-mytools", "--label-from-path",
        "/r(?<round>[0-9]+)/", tree.toString()};
    CommandRun refused = CommandRun.of(new IngestCommand(), args);
    assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
    List<String> errors = refused.stderr().lines().filter(l -> l.startsWith("ingest: ")).toList();
    assertThat(errors).singleElement().asString().matches("ingest: " + Pattern.quote(tree.toString())
        + "/r[12]/x\\.pg1[46][0-9]{2}_embedded\\.default\\.pk1: 6 runs in the warehouse already hold files of this"
        + " folder, from other content \\(an earlier release stored a mytools folder as one run per output file; or the"
        + " folder changed since it was ingested\\), and so do runs of 3 more folders; add --replace to replace them by"
        + " one run per folder");
    assertThat(snapshot(wh)).as("a refused ingest writes nothing").isEqualTo(before);

    String[] replacing = Stream.concat(Stream.of("--replace"), Stream.of(args)).toArray(String[]::new);
    CommandRun replaced = CommandRun.of(new IngestCommand(), replacing);
    assertThat(replaced.exitCode()).as(replaced.stderr()).isZero();
    List<String> added = replaced.stdout().lines().toList();
    assertThat(added).hasSize(4);
    Map<String, JsonNode> runs = runsById(wh);
    assertThat(runs.keySet()).doesNotContainAnyElementsOf(perFile).containsAll(added)
        .hasSize(release.size() - perFile.size() + added.size());
    release.forEach((id, expected) -> {
      if (!perFile.contains(id)) {
        assertSubset(runs.get(id), expected, "run " + id);
      }
    });
    assertThat(exportRows(wh, "step_metrics")).extracting(r -> r.get("run_id").asText())
        .doesNotContainAnyElementsOf(perFile);

    CommandRun trend = CommandRun.of(new TrendCommand(), "--warehouse", wh.toString(), "--by", "db_major", "--base", "14",
        "--where", "campaign=compat-mytools", "--out", tmp.resolve("trend").toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isZero();
    JsonNode report = Json.mapper().readTree(tmp.resolve("trend/trend.json").toFile());
    assertThat(report.get("groups")).isNotEmpty().allSatisfy(g ->
        assertThat(g.get("ci95").get("16").isArray()).as(g.get("group") + "'s interval at 16").isTrue());
    assertThat(report.get("messages").toString()).doesNotContain("measured by different runs");
  }

  @Test
  void anAppendNeedsTheUpgradeWhichIsIdempotentAndThenANewRunLandsNextToTheOldOnes() throws IOException {
    Path wh = copy("warehouse", "wh");
    Path newRun = newRunFolder("compat-after-upgrade");
    Map<Path, String> before = snapshot(wh);
    CommandRun refused = CommandRun.of(new IngestCommand(), "--warehouse", wh.toString(), newRun.toString());
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.stderr().strip()).doesNotContain("\n").contains("format 1", "benchlake upgrade --warehouse");
    assertThat(snapshot(wh)).as("a refused append writes nothing").isEqualTo(before);

    CommandRun upgrade = CommandRun.of(new UpgradeCommand(), "--warehouse", wh.toString());
    assertThat(upgrade.exitCode()).as(upgrade.stderr()).isZero();
    assertThat(upgrade.stdout()).contains("rejects: added columns error_type", "runs: added column server_start",
        "step_metrics: added columns health_before", "format 1 -> " + WarehouseFormat.CURRENT);
    Map<Path, String> upgraded = snapshot(wh);
    CommandRun again = CommandRun.of(new UpgradeCommand(), "--warehouse", wh.toString());
    assertThat(again.exitCode()).isZero();
    assertThat(again.stdout()).contains("nothing changed");
    assertThat(snapshot(wh)).as("a second upgrade changes nothing").isEqualTo(upgraded);
    assertThat(upgraded.keySet().stream().filter(p -> p.toString().endsWith(".parquet")))
        .as("the upgrade rewrote no data file").containsExactlyInAnyOrderElementsOf(
            before.keySet().stream().filter(p -> p.toString().endsWith(".parquet")).toList());

    CommandRun ingest = CommandRun.of(new IngestCommand(), "--warehouse", wh.toString(), newRun.toString());
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    assertThat(ingest.stdout().strip()).isEqualTo("compat-after-upgrade");
    Map<String, JsonNode> runs = runsById(wh);
    assertThat(runs).hasSize(expectedRuns().size() + 1);
    expectedRuns().forEach((id, expected) -> assertSubset(runs.get(id), expected, "run " + id));
    JsonNode added = runs.get("compat-after-upgrade");
    assertThat(added.get("lines_rejected").asLong()).isZero();
    assertThat(added.get("tasks_accepted").asLong())
        .isEqualTo(expectedRuns().get("compat-pg14-1").get("tasks_accepted").asLong());
    for (String time : List.of("started_at", "finished_at")) {
      assertThat(added.get(time).asText()).as("the new run's %s (INT64) read beside the release's (INT96)", time)
          .isNotBlank().isEqualTo(expectedRuns().get("compat-pg14-1").get(time).asText());
    }
    assertTimestampsOfBothKindsOfFileReadBack(wh, before.keySet());
    List<JsonNode> files = exportRows(wh, "ingest_files");
    assertThat(files).as("per-file accounting of the new run only (0.1.0 runs have none)")
        .extracting(f -> f.get("run_id").asText()).containsOnly("compat-after-upgrade").hasSize(2);
    assertThat(files).allSatisfy(f -> assertThat(f.get("lines").asLong()).isEqualTo(
        f.get("data_lines").asLong() + f.get("metadata_lines").asLong() + f.get("rejected_lines").asLong()));
    CommandRun rejects = CommandRun.of(new RejectsCommand(), "--warehouse", wh.toString(), "--json");
    assertThat(rejects.exitCode()).isZero();
    JsonNode summary = Json.mapper().readTree(rejects.stdout());
    assertThat(summary.get("rejected_lines").asLong()).isEqualTo(3);
    assertThat(summary.get("by_error_type").get("(not recorded)").asLong()).as("0.1.0 never recorded a type")
        .isEqualTo(3);
  }

  /**
   * A run folder of an older loadgen ingests; before 0.3.0 it has no table health, and its steps'
   * health is not recorded.
   */
  @ParameterizedTest
  @ValueSource(strings = {"0.1.0", "0.2.0", "0.3.0"})
  void theRawRunFolderOfAReleaseIngestsWithZeroRejects(String release) throws IOException {
    Path run = copy(release, "run", "run");
    Path wh = tmp.resolve("fresh");
    CommandRun ingest = CommandRun.of(new IngestCommand(), "--warehouse", wh.toString(), run.toString());
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    JsonNode only = runsById(wh).values().iterator().next();
    assertThat(only.get("lines_rejected").asLong()).isZero();
    assertThat(only.get("tasks_accepted").asLong()).isEqualTo(Files.readAllLines(run.resolve("tasks.csv")).size() - 1);
    assertThat(Files.readString(wh.resolve("_benchlake/format.json"))).contains("\"format_version\": "
        + WarehouseFormat.CURRENT);
    if (FORMAT.get(release) < 3) {
      assertThat(exportRows(wh, "step_metrics")).as("no table health row: not recorded").isEmpty();
    } else {
      assertThat(exportRows(wh, "step_metrics")).as("one table health row per step (point-select, insert)")
          .extracting(r -> r.get("step").asText()).containsExactlyInAnyOrder("point-select", "insert");
    }
  }

  @Test
  void aWarehouseNewerThanThisBuildIsRefusedWithOneLineAndNothingWritten() throws IOException {
    Path wh = copy("warehouse", "wh");
    Files.createDirectories(wh.resolve("_benchlake"));
    Files.writeString(wh.resolve("_benchlake/format.json"), "{\"format_version\": " + (WarehouseFormat.CURRENT + 1) + "}\n");
    Map<Path, String> before = snapshot(wh);
    Path newRun = newRunFolder("compat-too-new");
    List<CommandRun> results = List.of(
        CommandRun.of(new RunsCommand(), "--warehouse", wh.toString()),
        CommandRun.of(new IngestCommand(), "--warehouse", wh.toString(), newRun.toString()),
        CommandRun.of(new UpgradeCommand(), "--warehouse", wh.toString()),
        CommandRun.of(new RejectsCommand(), "--warehouse", wh.toString()),
        CommandRun.of(new ExportCommand(), "--warehouse", wh.toString(), "--table", "runs", "--out", tmp.resolve("x.csv").toString()),
        CommandRun.of(new CompareCommand(), "--warehouse", wh.toString(), "--baseline", "db_major=14", "--candidate", "db_major=17",
            "--out", tmp.resolve("c").toString()));
    for (CommandRun r : results) {
      assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
      assertThat(r.stderr().strip()).doesNotContain("\n")
          .contains("format " + (WarehouseFormat.CURRENT + 1), "newer than this benchlake");
    }
    assertThat(snapshot(wh)).as("nothing written").isEqualTo(before);
    assertThat(tmp.resolve("x.csv")).doesNotExist();
  }

  /**
   * A real {@code bin/benchlake upgrade} killed with SIGKILL as soon as it says it is changing
   * {@code runs}, its last table: {@code rejects} already has its new columns, the commit of
   * {@code runs} is in flight and the format file is not written. The warehouse still reads as
   * before, and the next upgrade finishes the job.
   */
  @Test
  void aKilledUpgradeLeavesTheWarehouseReadableAndTheNextOneFinishes() throws Exception {
    Path wh = copy("warehouse", "wh");
    Path out = tmp.resolve("upgrade.out");
    Process p = CommandRun.start(CompatibilityIT.class, tmp, Map.of(), out, tmp.resolve("upgrade.err"), "upgrade",
        "--warehouse", wh.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (!Files.readString(out).contains("runs: added column") && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    p.destroyForcibly(); // SIGKILL: bin/benchlake execs the JVM, so this is the upgrading process
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(Files.readString(out)).as("the kill came mid-upgrade").contains("runs: added column")
        .doesNotContain("format 1 ->");

    assertSameRuns(wh);
    for (String table : List.of("runs", "rejects")) {
      assertSameExport(wh, table);
    }
    CommandRun finish = CommandRun.of(new UpgradeCommand(), "--warehouse", wh.toString());
    assertThat(finish.exitCode()).as(finish.stderr()).isZero();
    assertThat(finish.stdout()).as("the killed upgrade's rejects commit stays done").doesNotContain("rejects:")
        .contains("format 1 -> " + WarehouseFormat.CURRENT);
    assertThat(Files.readString(wh.resolve("_benchlake/format.json")))
        .contains("\"format_version\": " + WarehouseFormat.CURRENT);
    assertThat(CommandRun.of(new UpgradeCommand(), "--warehouse", wh.toString()).stdout()).contains("nothing changed");
    assertSameRuns(wh);
    assertSameExport(wh, "rejects");
  }

  // --- helpers

  private void assertSameRuns(Path wh) throws IOException {
    assertSameRuns("0.1.0", wh);
  }

  private void assertSameRuns(String release, Path wh) throws IOException {
    Map<String, JsonNode> actual = runsById(wh);
    Map<String, JsonNode> expected = expectedRuns(release);
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    expected.forEach((id, e) -> assertSubset(actual.get(id), e, "run " + id));
  }

  private void assertSameExport(Path wh, String table) throws IOException {
    assertSameExport("0.1.0", wh, table);
  }

  private void assertSameExport(String release, Path wh, String table) throws IOException {
    assertSameRows(release, table, exportRows(wh, table));
  }

  /** {@code actual} holds the rows the release printed of {@code table}, in order, its later columns null. */
  private static void assertSameRows(String release, String table, List<JsonNode> actual) throws IOException {
    List<JsonNode> expected = expectedRows(release, table);
    assertThat(actual).as(table + " rows").hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertSubset(actual.get(i), expected.get(i), table + " row " + (i + 1));
      for (String column : NEW_COLUMNS.get(release).get(table)) {
        JsonNode value = actual.get(i).get(column);
        assertThat(value != null && value.isNull()).as(column + " of an old row is there and null (not recorded): "
            + value).isTrue();
      }
    }
  }

  /** Every field of {@code expected} (0.1.0's columns) is in {@code actual} with the same value. */
  private static void assertSubset(JsonNode actual, JsonNode expected, String what) {
    assertThat(actual).as(what).isNotNull();
    for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      assertThat(actual.get(field.getKey())).as(what + ": " + field.getKey()).isEqualTo(field.getValue());
    }
  }

  private Map<String, JsonNode> runsById(Path wh) throws IOException {
    CommandRun runs = CommandRun.of(new RunsCommand(), "--warehouse", wh.toString(), "--json");
    assertThat(runs.exitCode()).as(runs.stderr()).isZero();
    Map<String, JsonNode> out = new TreeMap<>();
    for (String line : runs.stdout().split("\n")) {
      if (!line.isBlank()) {
        JsonNode node = Json.mapper().readTree(line);
        out.put(node.get("run_id").asText(), node);
      }
    }
    return out;
  }

  private static Map<String, JsonNode> expectedRuns() throws IOException {
    return expectedRuns("0.1.0");
  }

  private static Map<String, JsonNode> expectedRuns(String release) throws IOException {
    Map<String, JsonNode> out = new TreeMap<>();
    for (String line : Files.readAllLines(COMPAT.resolve(release).resolve("expected/runs.json"))) {
      JsonNode node = Json.mapper().readTree(line);
      out.put(node.get("run_id").asText(), node);
    }
    return out;
  }

  private List<JsonNode> exportRows(Path wh, String table) throws IOException {
    CommandRun export = CommandRun.writingTo(ExportCommand::new, "--warehouse", wh.toString(), "--table", table,
        "--format", "jsonl", "--out", "-");
    assertThat(export.exitCode()).as(export.stderr()).isZero();
    List<JsonNode> rows = new ArrayList<>();
    for (String line : export.stdout().split("\n")) {
      if (!line.isBlank()) {
        rows.add(Json.mapper().readTree(line));
      }
    }
    return rows;
  }

  /** The 0.1.0 run folder under another run id: a new run of the same, old, raw format. */
  private Path newRunFolder(String runId) throws IOException {
    Path dir = copy("run", runId);
    ObjectNode manifest = (ObjectNode) Json.mapper().readTree(Files.readString(dir.resolve("manifest.json")));
    manifest.put("run_id", runId);
    Files.writeString(dir.resolve("manifest.json"), Json.mapper().writeValueAsString(manifest));
    return dir;
  }

  private Path copy(String fixture, String name) throws IOException {
    return copy("0.1.0", fixture, name);
  }

  private Path copy(String release, String fixture, String name) throws IOException {
    return CompatFixtures.copy(release, fixture, tmp.resolve(name));
  }

  /**
   * Releases up to 0.3.0 wrote the tasks' timestamps as Parquet INT96, later ones as INT64
   * microseconds: one table then holds both kinds of file. The old rows still read as the release
   * printed them, and the new run (0.1.0's raw run again) reads back the same instants as its
   * first ingest, to the microsecond.
   */
  private void assertTimestampsOfBothKindsOfFileReadBack(Path wh, Set<Path> before) throws IOException {
    Map<String, List<Path>> byType = new TreeMap<>();
    try (Stream<Path> files = Files.list(wh.resolve("tasks"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".parquet")).toList()) {
        String kind = before.contains(wh.relativize(file)) ? "old " : "new ";
        byType.computeIfAbsent(kind + ParquetFooters.physicalType(file, WarehouseSchema.START_TS),
            k -> new ArrayList<>()).add(file);
      }
    }
    assertThat(byType.keySet()).as("the tasks table's files by start_ts's physical type")
        .containsExactly("new INT64 TIMESTAMP(MICROS,true)", "old INT96");

    List<JsonNode> tasks = exportRows(wh, "tasks");
    assertSameRows("0.1.0", "tasks",
        tasks.stream().filter(t -> !t.get("run_id").asText().equals("compat-after-upgrade")).toList());
    assertThat(instantsOf(tasks, "compat-after-upgrade"))
        .as("the same raw run's tasks from an INT64 file and from the release's INT96 one")
        .isNotEmpty().containsExactlyInAnyOrderElementsOf(instantsOf(expectedRows("0.1.0", "tasks"), "compat-pg14-1"));
  }

  /** Each task of {@code runId} among {@code tasks}: its step, client, seq, start, end and latency. */
  private static List<List<String>> instantsOf(List<JsonNode> tasks, String runId) {
    List<String> columns = List.of("step", "client_id", "seq", "start_ts", "end_ts", "latency_ns");
    return tasks.stream().filter(t -> t.get("run_id").asText().equals(runId))
        .map(t -> columns.stream().map(c -> t.get(c).asText()).toList()).toList();
  }

  /** The rows the release printed of {@code table} ({@code expected/TABLE.jsonl}). */
  private static List<JsonNode> expectedRows(String release, String table) throws IOException {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : Files.readAllLines(COMPAT.resolve(release).resolve("expected/" + table + ".jsonl"))) {
      rows.add(Json.mapper().readTree(line));
    }
    return rows;
  }

  /** Every file under {@code dir} (but the lock files, which any command may touch) with its size and mtime. */
  private static Map<Path, String> snapshot(Path dir) throws IOException {
    return FileTrees.snapshot(dir, "_locks");
  }

}
