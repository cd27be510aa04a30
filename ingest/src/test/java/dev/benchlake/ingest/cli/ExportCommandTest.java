package dev.benchlake.ingest.cli;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.warehouse.cli.ExportCommand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.testing.Golden;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.spark.SparkJobs;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.write.WarehouseWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code benchlake export}: golden files seal every table in both formats; a run whose ingest died
 * before its commit point is never exported. The warehouse is written by the real
 * {@link WarehouseWriter} from rows chosen for their edges: quotes, commas and line breaks in text,
 * a latency above 2^53 ns, NaN, nulls, microsecond timestamps, labels that differ between runs.
 */
@org.junit.jupiter.api.Tag("integration")
class ExportCommandTest extends IngestTestSupport {
  private static final Timestamp INGESTED_AT = timestamp("2026-01-01T00:00:00Z");
  private static final String GHOST = "r-ghost";

  @TempDir
  static Path shared;

  private static Warehouse edges;

  /** Written once: each commit costs seconds. */
  @BeforeAll
  static void writeEdgeCases() {
    edges = edgeCases(Warehouse.at(spark, shared.resolve("edges").toString()));
  }

  /** Read with Delta Kernel (every table of a warehouse this small) and, asked for with --master, with Spark: one golden. */
  @ParameterizedTest(name = "{0} as {1}, {2}")
  @CsvSource({"runs, csv, kernel", "runs, jsonl, kernel", "tasks, csv, kernel", "tasks, jsonl, kernel",
      "step_metrics, csv, kernel", "step_metrics, jsonl, kernel", "rejects, csv, kernel", "rejects, jsonl, kernel",
      "tasks, csv, spark", "tasks, jsonl, spark", "runs, csv, spark"})
  void everyTableInEveryFormatMatchesItsGoldenFile(String table, String format, String reader) throws IOException {
    Warehouse warehouse = edges;
    Path out = tmp.resolve("out-" + reader).resolve(table + "." + format);
    List<String> args = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--table", table, "--format", format,
        "--out", out.toString()));
    if (reader.equals("spark")) {
      args.addAll(List.of("--master", "local[2]"));
    }
    CommandRun run = CommandRun.of(new ExportCommand(), args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String exported = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(exported).doesNotContain(GHOST);
    try (var files = Files.list(out.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).as("no partial file left").containsExactly(table + "." + format);
    }
    String name = "export-" + table + "." + format;
    Golden.checkOnly(ExportCommandTest.class, name, exported);
  }

  /**
   * Parquet holds the same rows in the same order as the other formats: read back (one file, one
   * partition, its order kept) and written as JSON Lines, each table matches the JSON Lines golden file.
   */
  @ParameterizedTest(name = "{0} as parquet, {1}")
  @CsvSource({"runs, kernel", "tasks, kernel", "step_metrics, kernel", "rejects, kernel", "tasks, spark",
      "runs, spark"})
  void parquetHoldsTheRowsAndOrderOfTheGoldenFiles(String table, String reader) throws IOException {
    Path out = tmp.resolve("parquet-" + reader).resolve(table + ".parquet");
    List<String> args = new ArrayList<>(List.of("--warehouse", edges.root(), "--table", table, "--format", "parquet",
        "--out", out.toString()));
    if (reader.equals("spark")) {
      args.addAll(List.of("--master", "local[2]"));
    }
    CommandRun run = CommandRun.of(new ExportCommand(), args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    Dataset<Row> back = spark.read().parquet(out.toString());
    assertThat(back.rdd().getNumPartitions()).isEqualTo(1);
    dev.benchlake.warehouse.export.LineFormat jsonl = new dev.benchlake.warehouse.export.LineFormat(
        dev.benchlake.warehouse.export.ExportFormat.JSONL, back.schema(), List.of());
    StringBuilder lines = new StringBuilder();
    back.collectAsList().forEach(row -> lines.append(jsonl.line(row)).append('\n'));
    Golden.checkOnly(ExportCommandTest.class, "export-" + table + ".jsonl", lines.toString());
  }

  @Test
  void smallTasksAreReadWithoutSparkAndWithSparkWhenAskedFor() throws Exception {
    List<String> kernel = new ArrayList<>();
    assertThat(SparkJobs.during(spark, () -> kernel.add(stdout(edges, "--table", "tasks"))))
        .as("Spark jobs of a small tasks export").isZero();
    assertThat(SparkJobs.during(spark, () -> assertThat(stdout(edges, "--table", "tasks", "--master", "local[2]"))
        .isEqualTo(kernel.get(0)))).as("Spark jobs when --master asks for Spark").isPositive();
  }

  @Test
  void jsonLinesKeepEveryColumnAndExactNumbers() throws IOException {
    Warehouse warehouse = edges;
    String out = stdout(warehouse, "--table", "tasks", "--format", "jsonl", "--where", "os=linux", "--step", "select-update");
    List<String> lines = out.lines().toList();
    assertThat(lines).hasSize(3);
    for (String line : lines) {
      JsonNode task = Json.mapper().readTree(line);
      assertThat(task.size()).isEqualTo(WarehouseSchema.TASKS.fields().length);
    }
    JsonNode straggler = Json.mapper().readTree(lines.get(2));
    assertThat(straggler.get("latency_ns").isIntegralNumber()).isTrue();
    assertThat(straggler.get("latency_ns").asLong()).isEqualTo((1L << 53) + 1);
  }

  @Test
  void selectsRunsStepsAndColumnsOnStdout() {
    Warehouse warehouse = edges;
    assertThat(stdout(warehouse, "--table", "tasks", "--where", "os=windows", "--step", "point-select",
        "--columns", "seq,run_id,latency_ns"))
        .isEqualTo("seq,run_id,latency_ns\n0,r-windows-1,1500000\n1,r-windows-1,\n");
    assertThat(stdout(warehouse, "--table", "runs", "--where", "os!=linux", "--columns", "run_id,labels"))
        .as("label columns are those of the exported runs").isEqualTo("run_id,labels.host,labels.os\nr-windows-1,wé,windows\n");
    assertThat(stdout(warehouse, "--table", "tasks", "--where", "os=solaris")).as("header only")
        .startsWith("run_id,step,client_id,").hasLineCount(1);
  }

  @Test
  void rowsComeOutInOrderAcrossPartitionsAndFiles() {
    Warehouse warehouse = Warehouse.at(spark, tmp.resolve("big").toString());
    List<Row> tasks = new ArrayList<>();
    for (int client = 0; client < 4; client++) {
      for (long seq = 0; seq < 1000; seq++) {
        tasks.add(task("r-big", "point-select", client, seq, null, null, 1000 + seq, true, false, null, null));
      }
    }
    Collections.shuffle(tasks, new Random(7));
    Dataset<Row> rows = spark.createDataFrame(tasks, WarehouseSchema.TASKS).repartition(5);
    commit(warehouse, "big", List.of(run("r-big", Map.of("os", "linux"), null)), rows, List.of(), List.of());

    List<String> expected = new ArrayList<>(List.of("client_id,seq"));
    for (int client = 0; client < 4; client++) {
      for (long seq = 0; seq < 1000; seq++) {
        expected.add(client + "," + seq);
      }
    }
    // Spark (asked for): five partitions streamed in order; Kernel (a table this small): sorted on the driver.
    assertThat(stdout(warehouse, "--table", "tasks", "--columns", "client_id,seq", "--master", "local[2]").lines().toList())
        .isEqualTo(expected);
    assertThat(stdout(warehouse, "--table", "tasks", "--columns", "client_id,seq").lines().toList()).isEqualTo(expected);
  }

  @Test
  void badInputIsExitTwoWithOneLineAndNoFile() {
    Warehouse warehouse = edges;
    Path out = tmp.resolve("bad.csv");
    String wh = warehouse.root();
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", wh, "--table", "nope", "--out", out.toString()), "runs, tasks");
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", wh, "--table", "tasks", "--where", "os", "--out",
        out.toString()), "is not key=value");
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", wh, "--table", "runs", "--where", "labels=x", "--out",
        out.toString()), "cannot be compared");
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", wh, "--table", "runs", "--step", "x", "--out",
        out.toString()), "has no steps");
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", wh, "--table", "tasks", "--columns", "run_id,latency",
        "--out", out.toString()), "no column 'latency'");
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", wh, "--table", "tasks", "--format", "xml",
        "--out", out.toString()), "the formats: csv, jsonl, parquet");
    assertBad(CommandRun.of(new ExportCommand(), "--warehouse", tmp.resolve("none").toString(), "--table", "runs",
        "--out", out.toString()), "no warehouse at");
    assertThat(out).doesNotExist();
  }

  private static void assertBad(CommandRun run, String message) {
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr()).contains(message).doesNotContain("\tat ");
    assertThat(run.stdout()).isEmpty();
  }

  private static String stdout(Warehouse warehouse, String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ExportCommand command = new ExportCommand(bytes);
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--out", "-"));
    all.addAll(List.of(args));
    CommandRun run = CommandRun.of(command, all.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Two committed runs with every kind of value, and the rows of a third whose ingest died before its commit. */
  private static Warehouse edgeCases(Warehouse warehouse) {
    Map<String, String> linuxLabels = new TreeMap<>(Map.of("os", "linux", "date", "2016-03-02",
        "note", "says \"hi\", twice"));
    Row linux = RowFactory.create("r-linux-1", "loadgen", "key-linux",
        List.of(RowFactory.create("/data/linux/run1/tasks.csv", "ab".repeat(32), 1234L)), linuxLabels, "linux", "16.4", 16,
        "select-update", 4, "db1", "complete", timestamp("2016-03-02T03:42:19.123456Z"),
        timestamp("2016-03-02T03:47:10Z"), 4L, 3L, 1L, "{\"seed\":42}", INGESTED_AT, "test",
        "2016-03-02T03:40:00.5Z|C:\\pg\\data");
    List<Row> linuxTasks = List.of(
        task("r-linux-1", "select-update", 1, 0, "2016-03-02T03:42:19.5Z", "2016-03-02T03:42:20.000001Z", 500_000_001L,
            true, true, null, null),
        task("r-linux-1", "select-update", 1, 1, null, null, null, false, false, "",
            "Timeout while getting a connection from pool, \"pool\" full\nsecond line"),
        task("r-linux-1", "select-update", 2, 0, "2016-03-02T03:42:19Z", "2016-03-02T03:46:07Z", (1L << 53) + 1,
            true, false, null, null),
        task("r-linux-1", "point-select", 0, 0, "2016-03-02T03:47:09.999999Z", "2016-03-02T03:47:10Z", 999L,
            true, false, null, null));
    List<Row> metrics = List.of(
        RowFactory.create("r-linux-1", "select-update", null, null, "latency_avg", 1.0E-5, "s", null, 7L, null, null,
            null, null, null),
        RowFactory.create("r-linux-1", "select-update", 1.0, 1.0, "tps", 123456.789, "1/s", null, 8L, null, null, null,
            null, null),
        RowFactory.create("r-linux-1", "select-update", 2.0, 1.0, "tps", Double.NaN, "1/s", null, null, null, null,
            null, null, null),
        // A step's table health (format 3): nested structs, timestamps among them, some null.
        RowFactory.create("r-linux-1", "select-update", null, null, "table_health", 1.0, "tables", null, 3L,
            RowFactory.create(java.sql.Timestamp.from(java.time.Instant.parse("2016-03-02T03:40:00.5Z")), 1, 100_000L,
                0L, 0L, 0L, null, null, 12L, 345L),
            RowFactory.create(java.sql.Timestamp.from(java.time.Instant.parse("2016-03-02T03:46:08Z")), 1, 100_000L,
                11_800L, 1L, 0L, java.sql.Timestamp.from(java.time.Instant.parse("2016-03-02T03:45:00.123456Z")), null,
                13L, 1_234L),
            1, 0, "none"));
    List<Row> rejects = List.of(RowFactory.create("r-linux-1", "/data/linux/run1/tasks.csv", 9L,
        "select-update\t1,\"x\"", "not a number: \"x\"", "number_format", "latency"));
    commit(warehouse, "linux", List.of(linux), spark.createDataFrame(linuxTasks, WarehouseSchema.TASKS), metrics, rejects);

    Row windows = run("r-windows-1", Map.of("os", "windows", "host", "wé"), null);
    List<Row> windowsTasks = List.of(
        task("r-windows-1", "point-select", 0, 1, null, null, null, false, false, "57014", ""),
        task("r-windows-1", "point-select", 0, 0, null, "2016-03-02T02:32:25Z", 1_500_000L, true, false, null, null));
    commit(warehouse, "windows", List.of(windows), spark.createDataFrame(windowsTasks, WarehouseSchema.TASKS), List.of(),
        List.of());

    Row ghost = run(GHOST, Map.of("os", "linux"), null);
    WarehouseWriter dying = new WarehouseWriter(warehouse, new WarehouseWriter.CommitListener() {
      @Override
      public void beforeCommit(Table table) {
        if (table == Table.RUNS) {
          throw new IllegalStateException("killed before the commit point");
        }
      }
    });
    try {
      dying.append("ghost", batch(List.of(ghost), spark.createDataFrame(List.of(
          task(GHOST, "select-update", 0, 0, null, null, 5L, true, false, null, null)), WarehouseSchema.TASKS),
          List.of(RowFactory.create(GHOST, "select-update", null, null, "tps", 1.0, "1/s", null, 1L, null, null, null,
              null, null)),
          List.of(RowFactory.create(GHOST, "f", 1L, "x", "y", "syntax", null))));
      fail("the ghost ingest committed");
    } catch (IllegalStateException expected) {
      assertThat(spark.read().format("delta").load(warehouse.path(Table.TASKS)).where("run_id = 'r-ghost'").count())
          .as("the ghost's tasks are on disk").isEqualTo(1);
    }
    return warehouse;
  }

  private static void commit(Warehouse warehouse, String key, List<Row> runs, Dataset<Row> tasks, List<Row> metrics,
      List<Row> rejects) {
    new WarehouseWriter(warehouse).append(key, batch(runs, tasks, metrics, rejects));
  }

  private static WarehouseWriter.Batch batch(List<Row> runs, Dataset<Row> tasks, List<Row> metrics, List<Row> rejects) {
    Set<Table> empty = new java.util.HashSet<>();
    if (metrics.isEmpty()) {
      empty.add(Table.STEP_METRICS);
    }
    if (rejects.isEmpty()) {
      empty.add(Table.REJECTS);
    }
    return new WarehouseWriter.Batch(frame(runs, WarehouseSchema.RUNS), tasks, frame(metrics, WarehouseSchema.STEP_METRICS),
        frame(rejects, WarehouseSchema.REJECTS), empty);
  }

  private static Dataset<Row> frame(List<Row> rows, StructType schema) {
    return spark.createDataFrame(rows, schema);
  }

  /** A run with only the required columns and its labels (os lifted into the dimension). */
  private static Row run(String runId, Map<String, String> labels, Timestamp startedAt) {
    return RowFactory.create(runId, "fixture", "key-" + runId, List.of(), new TreeMap<>(labels), labels.get("os"), null,
        null, null, null, null, "interrupted", startedAt, null, 0L, 0L, 0L, null, INGESTED_AT, "test", null);
  }

  private static Row task(String runId, String step, int client, long seq, String start, String end, Long latencyNs,
      boolean ok, boolean warmup, String sqlstate, String error) {
    return RowFactory.create(runId, step, client, seq, start == null ? null : timestamp(start),
        end == null ? null : timestamp(end), latencyNs, latencyNs == null ? null : latencyNs / 2, ok ? 100L : null, warmup,
        ok, sqlstate, error, 2 + client * 1000 + seq);
  }

  private static Timestamp timestamp(String iso) {
    return Timestamp.from(Instant.parse(iso));
  }
}
