package dev.benchlake.ingest.format;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult;
import dev.benchlake.ingest.IngestTestSupport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.Tag("integration")
public class LoadgenAndCsvIngestTest extends IngestTestSupport {
  private static final long ORIGIN_NS = 1_700_000_000_123_456_789L;

  /**
   * runs.server_start, the contract with loadgen: a hand-made manifest carrying
   * {@code target.server_start} gives {@code "<postmaster_start_time>|<data_directory>"}, a null
   * directory an empty one after the bar, and a manifest without it (0.1.0's) null: not recorded.
   * The run's files are accounted for in ingest_files, one row each, with the reject of the cut line.
   */
  @Test
  @org.junit.jupiter.api.Tag("integration")
  void serverStartFromTheManifestAndTheFilesAccountedFor() throws Exception {
    Path with = loadgenRun(tmp.resolve("with"), "run-start", RunStatus.COMPLETE, 8);
    addServerStart(with, "{\"postmaster_start_time\": \"2026-01-02T03:00:00.123456Z\", \"data_directory\": \"/var/lib/postgresql/16/main\"}");
    Path noDir = loadgenRun(tmp.resolve("nodir"), "run-nodir", RunStatus.COMPLETE, 8);
    addServerStart(noDir, "{\"postmaster_start_time\": \"2026-01-02T03:00:00Z\", \"data_directory\": null}");
    Path old = loadgenRun(tmp.resolve("old"), "run-old", RunStatus.COMPLETE, 8);
    ingest(IngestRequest.of(with, noDir, old));

    Map<String, String> serverStart = new TreeMap<>();
    for (Row r : runs()) {
      serverStart.put(r.getAs("run_id"), r.getAs("server_start"));
    }
    assertThat(serverStart).containsEntry("run-start", "2026-01-02T03:00:00.123456Z|/var/lib/postgresql/16/main")
        .containsEntry("run-nodir", "2026-01-02T03:00:00Z|").containsEntry("run-old", null);

    List<Row> files = warehouse().ingestFiles().where(col("run_id").equalTo("run-start")).orderBy("path").collectAsList();
    assertThat(files).extracting(f -> Path.of(f.<String>getAs("path")).getFileName().toString())
        .containsExactly("manifest.json", "tasks.csv");
    Row tasks = files.get(1);
    assertThat(List.of(tasks.<Long>getAs("lines"), tasks.<Long>getAs("data_lines"), tasks.<Long>getAs("metadata_lines"),
        tasks.<Long>getAs("rejected_lines"))).containsExactly(10L, 8L, 1L, 1L);
    assertThat(tasks.<Long>getAs("bytes")).isEqualTo(Files.size(RunDirectory.tasks(with)));
    Row reject = warehouse().rejects().where(col("run_id").equalTo("run-start")).first();
    assertThat(List.of(reject.<String>getAs("error_type"), String.valueOf(reject.<String>getAs("column"))))
        .as("the cut last line ends before a field").containsExactly("field_count", "null");
  }

  /**
   * step_metrics' table health (format 3), the contract with loadgen: core's golden manifest with
   * two steps' health ingests as one {@code table_health} row per step, on the manifest line where
   * the step's entry begins, with every figure; a manifest without health (an older loadgen) adds
   * no such row, so its steps' health reads as not recorded.
   */
  @Test
  void tableHealthFromTheManifestGoesWithItsStep() throws Exception {
    Path run = loadgenRun(tmp.resolve("health"), "run-health", RunStatus.COMPLETE, 8);
    String manifest;
    try (java.io.InputStream in = getClass().getResourceAsStream("/dev/benchlake/core/raw/manifest-health-golden.json")) {
      manifest = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("2b0c8a0e-5d43-4b8f-9d55-3f1c2d9b7a10",
          "run-health");
    }
    Files.writeString(RunDirectory.manifest(run), manifest);
    Path old = loadgenRun(tmp.resolve("old"), "run-old", RunStatus.COMPLETE, 8);
    ingest(IngestRequest.of(run, old));

    List<Row> health = warehouse().stepMetrics().orderBy("source_line").collectAsList();
    assertThat(health).extracting(r -> r.<String>getAs("run_id")).containsOnly("run-health");
    assertThat(health).extracting(r -> r.<String>getAs("step")).containsExactly("update-index", "point-select");
    List<String> lines = Files.readAllLines(RunDirectory.manifest(run));
    Row writes = health.get(0);
    assertThat(lines.get((int) (long) writes.<Long>getAs("source_line") - 1)).as("the line where the entry begins")
        .contains("{");
    assertThat(List.<Object>of(writes.getAs("metric"), writes.getAs("value"), writes.getAs("unit")))
        .containsExactly("table_health", 2.0, "tables");
    Row before = writes.getAs("health_before");
    Row after = writes.getAs("health_after");
    assertThat(before.<Long>getAs("n_dead_tup")).isZero();
    assertThat(after.<Long>getAs("n_dead_tup")).isEqualTo(11_800L);
    assertThat(after.<Long>getAs("n_live_tup")).isEqualTo(20_000L);
    assertThat(after.<Long>getAs("autovacuum_count")).isEqualTo(1L);
    assertThat(after.<java.sql.Timestamp>getAs("last_autovacuum").toInstant().toString())
        .isEqualTo("2026-11-29T10:00:20.125Z");
    assertThat(before.<java.sql.Timestamp>getAs("last_autovacuum")).isNull();
    assertThat(after.<Long>getAs("buffers_written")).isEqualTo(1_234L);
    assertThat(List.<Object>of(writes.getAs("tables_autovacuumed"), writes.getAs("tables_autoanalyzed"),
        writes.getAs("between_steps"))).containsExactly(1, 2, "vacuum-analyze");
    Row files = warehouse().ingestFiles().where(col("run_id").equalTo("run-health")
        .and(col("path").endsWith("manifest.json"))).first();
    assertThat(List.of(files.<Long>getAs("lines"), files.<Long>getAs("data_lines"), files.<Long>getAs("metadata_lines")))
        .containsExactly((long) lines.size(), 2L, lines.size() - 2L);
  }

  /**
   * A step's own figure in the manifest (scan's rows per second, issue 26.4) becomes a whole-run
   * step_metrics row on the line where its entry begins; the CPU sets and step windows stay
   * metadata (the run's labels carry the sets).
   */
  @Test
  void aStepsOwnFigureFromTheManifestIsAWholeRunRow() throws Exception {
    Path run = withCoreGoldenManifest(loadgenRun(tmp.resolve("duet"), "run-duet", RunStatus.COMPLETE, 8),
        "manifest-duet-golden.json", "run-duet");
    ingest(IngestRequest.of(run));

    List<Row> rows = warehouse().stepMetrics().collectAsList();
    assertThat(rows).singleElement().satisfies(r -> {
      assertThat(List.<Object>of(r.getAs("step"), r.getAs("metric"), r.getAs("value"), r.getAs("unit")))
          .containsExactly("scan_range=100", "qps", 1.25e7, "1/s");
      assertThat(r.<Object>getAs("interval_start_s")).as("a whole-run figure").isNull();
      List<String> lines = Files.readAllLines(RunDirectory.manifest(run));
      assertThat(lines.get((int) (long) r.<Long>getAs("source_line") - 1)).contains("{");
      assertThat(lines.get((int) (long) r.<Long>getAs("source_line"))).contains("scan_range=100");
    });
  }

  /**
   * A step's resource counters (issue 48) become its per-operation step_metrics rows under each of
   * its task names, with the values ResourceMetric defines (exact: differences over tasks); a
   * counter not measured (a server by URL's processes) gives no row, never a zero.
   */
  @Test
  void aStepsResourceCountersBecomeItsPerOperationRowsAndWhatWasNotMeasuredNone() throws Exception {
    Path run = withCoreGoldenManifest(loadgenRun(tmp.resolve("resources"), "run-resources", RunStatus.COMPLETE, 8),
        "manifest-resources-golden.json", "run-resources");
    ingest(IngestRequest.of(run));

    Map<String, Object> perOp = new TreeMap<>();
    for (Row r : warehouse().stepMetrics().where(col("metric").endsWith("_per_op")).collectAsList()) {
      assertThat(r.<String>getAs("step")).isEqualTo("point-select");
      assertThat(r.<Object>getAs("interval_start_s")).as("a whole-step figure").isNull();
      perOp.put(r.getAs("metric"), List.of(r.getAs("value"), r.getAs("unit")));
    }
    // The golden manifest's step: 2,000 tasks; client user CPU 1.23 s, WAL 200,000 bytes, 2,003 commits.
    assertThat(perOp).containsOnly(Map.entry("wal_bytes_per_op", List.of(100.0, "bytes")),
        Map.entry("commits_per_op", List.of(2_003 / 2_000.0, "count")));
    assertThat(perOp).as("client CPU needs its system time too, server CPU was not measured")
        .doesNotContainKeys("client_cpu_us_per_op", "server_cpu_us_per_op");
  }

  /** The run's manifest replaced by one of core's golden manifests, under the run's id. */
  private Path withCoreGoldenManifest(Path run, String golden, String runId) throws java.io.IOException {
    try (java.io.InputStream in = getClass().getResourceAsStream("/dev/benchlake/core/raw/" + golden)) {
      Files.writeString(RunDirectory.manifest(run), new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("2b0c8a0e-5d43-4b8f-9d55-3f1c2d9b7a10", runId));
    }
    return run;
  }

  private static void addServerStart(Path run, String json) throws java.io.IOException {
    com.fasterxml.jackson.databind.node.ObjectNode manifest = (com.fasterxml.jackson.databind.node.ObjectNode)
        dev.benchlake.core.Json.mapper().readTree(Files.readString(RunDirectory.manifest(run)));
    ((com.fasterxml.jackson.databind.node.ObjectNode) manifest.get("target"))
        .set("server_start", dev.benchlake.core.Json.mapper().readTree(json));
    Files.writeString(RunDirectory.manifest(run), dev.benchlake.core.Json.mapper().writeValueAsString(manifest));
  }

  /** A loadgen run directory written with core's own contract classes, killed while running. */
  public static Path loadgenRun(Path dir, String runId, RunStatus status, int tasks) throws Exception {
    Files.createDirectories(dir);
    RunManifest manifest = new RunManifest(RunManifest.FORMAT_VERSION, runId,
        new RunManifest.Tool("benchlake-loadgen", "test"), "2026-01-02T03:04:05Z",
        status == RunStatus.RUNNING ? null : "2026-01-02T03:05:05Z", ORIGIN_NS, status, null,
        new RunManifest.Workload("select-update", List.of("point-select"), new TreeMap<>(Map.of("scale", 1))),
        new RunManifest.Mode("closed", 4, (long) tasks, null, 1.0, null, null, null),
        new RunManifest.Target("jdbc:postgresql://127.0.0.1:5432/postgres", true,
            "PostgreSQL 16.4 on x86_64-pc-linux-gnu", 16, new TreeMap<>()),
        new RunManifest.Client("bench-host", "Linux", "6.1", "amd64", 2, null, "17"),
        new TreeMap<>(Map.of("os", "linux")), null);
    manifest.writeAtomically(RunDirectory.manifest(dir));
    StringBuilder csv = new StringBuilder(TaskCsv.HEADER).append('\n');
    for (int i = 0; i < tasks; i++) {
      long intended = i * 1_000_000L;
      boolean ok = i % 10 != 9;
      TaskCsv.appendLine(new TaskRecord("point-select", i % 4, i / 4, intended, intended + 2_000, intended + 500_000 + i,
          1_000, i < 4, ok, ok ? "" : "57014", ok ? "" : "canceling statement due to \"timeout\", sorry"), csv);
    }
    csv.append("point-select,1,99,5,6"); // the half-written last line of a killed run
    Files.writeString(RunDirectory.tasks(dir), csv, StandardCharsets.UTF_8);
    return dir;
  }

  /**
   * tasks.csv.gz, as a killed loadgen leaves it (synced blocks, no trailer, a half-written last line),
   * lands the same tasks and rejects as the same run's tasks.csv.
   */
  @Test
  void aCompactTasksFileCutByACrashIngestsAsItsTasksCsv() throws Exception {
    Path plain = loadgenRun(tmp.resolve("plain"), "run-plain", RunStatus.RUNNING, 40);
    Path compact = loadgenRun(tmp.resolve("compact"), "run-compact", RunStatus.RUNNING, 40);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(bytes, 1 << 16, true);
    gzip.write(Files.readAllBytes(RunDirectory.tasks(compact)));
    gzip.flush(); // a sync flush, and no finish(): the trailer a killed loadgen never wrote
    Files.write(compact.resolve(RunDirectory.TASKS_GZ), bytes.toByteArray());
    Files.delete(RunDirectory.tasks(compact));

    IngestResult result = ingest(IngestRequest.of(plain, compact));
    assertThat(result.runs()).extracting(IngestResult.RunOutcome::tasks).containsExactly(40L, 40L);
    assertThat(result.runs()).extracting(IngestResult.RunOutcome::linesRejected).containsExactly(1L, 1L);
    String[] columns = java.util.Arrays.stream(warehouse().tasks().columns()).filter(c -> !c.equals("run_id"))
        .toArray(String[]::new);
    java.util.function.Function<String, List<Row>> tasksOf = run -> warehouse().tasks().where(col("run_id").equalTo(run))
        .selectExpr(columns).orderBy("source_line").collectAsList();
    assertThat(tasksOf.apply("run-compact")).hasSize(40).isEqualTo(tasksOf.apply("run-plain"));
    assertThat(warehouse().rejects().where(col("run_id").equalTo("run-compact")).first().<Long>getAs("line_no"))
        .isEqualTo(42L);
  }

  @Test
  void loadgenRunKeepsItsIdWarmupAndBecomesInterrupted() throws Exception {
    Path run = loadgenRun(tmp.resolve("run1"), "run-0001", RunStatus.RUNNING, 40);
    IngestResult result = ingest(IngestRequest.of(run).withLabels(Map.of("host", "db1")));

    assertThat(result.runs()).singleElement().satisfies(r -> {
      assertThat(r.runId()).isEqualTo("run-0001");
      assertThat(r.tasks()).isEqualTo(40);
      assertThat(r.linesRejected()).isEqualTo(1);
    });
    assertThat(result.files()).extracting(IngestResult.FileAccount::lines, IngestResult.FileAccount::rejected)
        .contains(org.assertj.core.groups.Tuple.tuple(42L, 1L));
    Row runRow = runs().get(0);
    assertThat(runRow.<String>getAs("status")).isEqualTo("interrupted");
    assertThat(runRow.<Integer>getAs("db_major")).isEqualTo(16);
    assertThat(runRow.<String>getAs("db_version")).isEqualTo("16.4");
    assertThat(runRow.<String>getAs("os")).isEqualTo("linux");
    assertThat(runRow.<String>getAs("host")).isEqualTo("db1");
    assertThat(runRow.<Integer>getAs("clients")).isEqualTo(4);
    assertThat(runRow.<String>getAs("metadata_json")).contains("\"run_id\":\"run-0001\"");
    assertThat(warehouse().tasks().where(col("warmup")).count()).isEqualTo(4);
    Row failed = warehouse().tasks().where(col("ok").equalTo(false)).orderBy("source_line").first();
    assertThat(failed.<String>getAs("sqlstate")).isEqualTo("57014");
    assertThat(failed.<String>getAs("error")).isEqualTo("canceling statement due to \"timeout\", sorry");
    Row task = warehouse().tasks().where(col("source_line").equalTo(2)).first();
    assertThat(task.<Long>getAs("latency_ns")).isEqualTo(500_000L);
    assertThat(task.<Long>getAs("service_ns")).isEqualTo(498_000L);
    assertThat(task.<Long>getAs("wait_ns")).isEqualTo(1_000L);
    assertThat(task.<java.sql.Timestamp>getAs("start_ts").toInstant().toString()).isEqualTo("2023-11-14T22:13:20.123458Z");
    assertThat(warehouse().rejects().first().<Long>getAs("line_no")).isEqualTo(42L);

    // The run finished later: same id, other content. Refused unless --replace.
    loadgenRun(tmp.resolve("run1"), "run-0001", RunStatus.COMPLETE, 44);
    assertThatThrownBy(() -> ingest(IngestRequest.of(run)))
        .isInstanceOf(BadInputException.class).hasMessageContaining("run run-0001 is already in the warehouse from other content");
    IngestResult replaced = ingest(IngestRequest.of(run).withReplace(true));
    assertThat(replaced.runs()).singleElement().extracting(IngestResult.RunOutcome::outcome).isEqualTo(IngestResult.Outcome.REPLACED);
    assertThat(runs()).singleElement().satisfies(r -> assertThat(r.<String>getAs("status")).isEqualTo("complete"));
    assertThat(count("tasks")).isEqualTo(44);
  }

  @Test
  void csvWithRunColumnThroughYamlMapping() throws Exception {
    Path csv = Files.writeString(tmp.resolve("results.csv"), String.join("\n",
        "run;query;ms;started;success;message",
        "a;q1;1.5;2024-05-01 10:00:00.250;true;",
        "a;q2;2.25;2024-05-01T10:00:01Z;1;",
        "b;q1;\"3,5\";2024-05-01 10:00:02;0;\"deadlock; retried\"",
        "b;q1;4;2024-05-01 10:00:03;false;\"timeout\"",
        "b;q2;-1;2024-05-01 10:00:04;true;",
        "",
        "b;q2;7;yesterday;true;"), StandardCharsets.UTF_8);
    Path mapping = Files.writeString(tmp.resolve("mapping.yml"), String.join("\n",
        "delimiter: ';'",
        "columns:",
        "  run: run",
        "  step: query",
        "  latency: ms",
        "  timestamp: started",
        "  ok: success",
        "  error: message",
        "latency_unit: ms",
        "labels:",
        "  os: linux"), StandardCharsets.UTF_8);
    IngestResult result = ingest(IngestRequest.of(csv).withMapping(mapping));

    assertThat(result.runs()).hasSize(2).allSatisfy(r -> assertThat(r.runId()).startsWith("csv-"));
    assertThat(result.files()).singleElement().satisfies(f -> {
      assertThat(f.lines()).isEqualTo(8);
      assertThat(f.accepted()).isEqualTo(5);
      assertThat(f.rejected()).isEqualTo(3);
    });
    assertThat(warehouse().rejects().orderBy("line_no").collectAsList()).extracting(r -> r.<Long>getAs("line_no") + " " + r.<String>getAs("reason"))
        .containsExactly("4 latency is not a number: '3,5'", "6 latency must be a finite number >= 0: '-1'",
            "8 timestamp is not iso: 'yesterday'");
    List<Row> runs = runs();
    assertThat(runs).extracting(r -> r.<scala.collection.Map<String, String>>getAs("labels").get("run").get())
        .containsExactlyInAnyOrder("a", "b");
    assertThat(runs).allSatisfy(r -> assertThat(r.<String>getAs("os")).isEqualTo("linux"));
    Row b = warehouse().tasks().where(col("source_line").equalTo(5)).first();
    assertThat(b.<Boolean>getAs("ok")).isFalse();
    assertThat(b.<String>getAs("error")).isEqualTo("timeout");
    assertThat(b.<Long>getAs("latency_ns")).isEqualTo(4_000_000L);
    Row a = warehouse().tasks().where(col("source_line").equalTo(2)).first();
    assertThat(a.<java.sql.Timestamp>getAs("start_ts").toInstant().toString()).isEqualTo("2024-05-01T10:00:00.250Z");
    assertThat(a.<java.sql.Timestamp>getAs("end_ts").toInstant().toString()).isEqualTo("2024-05-01T10:00:00.251500Z");
  }

  /** A relative-QPS table (step × version), the kind people publish, through a JSON mapping. */
  @Test
  void wideQpsTableBecomesOneRunPerVersion() throws Exception {
    Path csv = Files.writeString(tmp.resolve("qps.csv"), String.join("\n",
        "query,9.6,10,11",
        "point select,1.00,1.02,0.98",
        "range scan,1.00,,1.10",
        "insert,1.00,n/a,1.20"), StandardCharsets.UTF_8);
    Path mapping = Files.writeString(tmp.resolve("qps.json"),
        "{\"layout\": \"wide\", \"columns\": {\"step\": \"query\"}, \"metric\": \"relative_qps\", \"unit\": \"ratio\","
            + " \"column_label\": \"db_version\", \"labels\": {\"os\": \"linux\"}}", StandardCharsets.UTF_8);
    IngestResult result = ingest(IngestRequest.of(csv).withMapping(mapping));

    assertThat(result.runs()).hasSize(3);
    assertThat(runs()).extracting(r -> r.<String>getAs("db_version")).containsExactlyInAnyOrder("9.6", "10", "11");
    assertThat(runs()).extracting(r -> r.<Integer>getAs("db_major")).containsExactlyInAnyOrder(null, 10, 11);
    assertThat(warehouse().rejects().collectAsList()).singleElement()
        .satisfies(r -> assertThat(r.<String>getAs("reason")).isEqualTo("column '10' is not a number: 'n/a'"));
    Row v11 = warehouse().stepMetrics().join(warehouse().runs(), "run_id")
        .where(col("db_version").equalTo("11").and(col("step").equalTo("range scan"))).first();
    assertThat(v11.<Double>getAs("value")).isEqualTo(1.10);
    assertThat(v11.<String>getAs("metric")).isEqualTo("relative_qps");
    assertThat(count("step_metrics")).isEqualTo(3 + 2);
  }
}
