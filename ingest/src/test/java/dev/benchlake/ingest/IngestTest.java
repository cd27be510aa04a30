package dev.benchlake.ingest;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.IngestResult.Outcome;
import dev.benchlake.warehouse.DeltaLogActions;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.Tag("integration")
class IngestTest extends IngestTestSupport {
  /** A pgbench log in many small chunks, with bad lines at known places: rejects name the right lines. */
  @Test
  void rejectsKeepExactLineNumbersAcrossChunks() throws Exception {
    StringBuilder log = new StringBuilder();
    for (int i = 1; i <= 3000; i++) {
      if (i == 1 || i == 1234 || i == 2999) {
        log.append("garbage line ").append(i).append(" with\ttabs\n");
      } else if (i == 777) {
        log.append("0 777 12x 0 1700000000 5\r\n");
      } else {
        log.append(i % 3).append(' ').append(i).append(' ').append(100 + i % 50).append(" 0 ")
            .append(1_700_000_000 + i / 1000).append(' ').append(i % 1000 * 997).append(i % 2 == 0 ? "\n" : "\r\n");
      }
    }
    Path file = tmp.resolve("pgbench_log.100");
    Files.writeString(file, log, StandardCharsets.UTF_8);

    IngestResult result = ingest(IngestRequest.of(file).withFormat("pgbench-log").withChunkBytes(4093));

    assertThat(result.files()).singleElement().satisfies(f -> {
      assertThat(f.lines()).isEqualTo(3000);
      assertThat(f.accepted()).isEqualTo(2996);
      assertThat(f.rejected()).isEqualTo(4);
    });
    List<Row> rejects = warehouse().rejects().orderBy("line_no").collectAsList();
    assertThat(rejects).extracting(r -> r.<Long>getAs("line_no")).containsExactly(1L, 777L, 1234L, 2999L);
    assertThat(rejects.get(0).<String>getAs("raw_line")).isEqualTo("garbage line 1 with\ttabs");
    assertThat(rejects.get(0).<String>getAs("reason")).contains("4 fields; a pgbench log line has 6 to 8");
    assertThat(rejects.get(1).<String>getAs("raw_line")).isEqualTo("0 777 12x 0 1700000000 5");
    assertThat(rejects.get(1).<String>getAs("reason")).contains("time is neither microseconds");
    assertThat(rejects.get(0).<String>getAs("source_file")).isEqualTo(file.toString());
    assertThat(count("tasks")).isEqualTo(2996);
    Row line2000 = warehouse().tasks().where(col("source_line").equalTo(2000)).first();
    assertThat(line2000.<Long>getAs("seq")).isEqualTo(2000);
    assertThat(line2000.<Long>getAs("latency_ns")).isEqualTo((100 + 2000 % 50) * 1000L);
    Row run = runs().get(0);
    assertThat(run.<Long>getAs("lines_rejected")).isEqualTo(4);
    assertThat(run.<Long>getAs("tasks_accepted")).isEqualTo(2996);
    assertThat(run.<String>getAs("metadata_json")).contains("\"accepted\":2996,\"lines\":3000,").contains("\"rejected\":4");
  }

  /**
   * Chunks whose accounting does not fit the budget are parsed a second time for it alone: the
   * same rejects, counts and tasks as when everything fits.
   */
  @Test
  void accountingPastTheBudgetIsParsedAgainWithTheSameResult() throws Exception {
    StringBuilder log = new StringBuilder();
    for (int i = 1; i <= 2000; i++) {
      log.append(i % 10 == 0 ? "bad line " + i : (i % 4) + " " + i + " 150 0 1700000000 " + i).append('\n');
    }
    Path file = tmp.resolve("pgbench_log.55");
    Files.writeString(file, log, StandardCharsets.UTF_8);
    System.setProperty(IngestPass.BUDGET_PROPERTY, "20000");
    IngestResult result;
    try {
      result = ingest(IngestRequest.of(file).withFormat("pgbench-log").withChunkBytes(4096));
    } finally {
      System.clearProperty(IngestPass.BUDGET_PROPERTY);
    }
    assertThat(result.files()).singleElement().satisfies(f -> {
      assertThat(f.accepted()).isEqualTo(1800);
      assertThat(f.rejected()).isEqualTo(200);
    });
    assertThat(count("tasks")).isEqualTo(1800);
    assertThat(warehouse().rejects().orderBy("line_no").collectAsList())
        .extracting(r -> r.<Long>getAs("line_no")).hasSize(200).startsWith(10L, 20L).endsWith(2000L);
  }

  @Test
  void sameContentTwiceAddsNothingAndReplaceReplaces() throws Exception {
    Path a = fixture("pgbench_log.4242");
    Path b = fixture("pgbench_log.4242.1");
    IngestResult first = ingest(IngestRequest.of(a, b));
    assertThat(first.runs()).singleElement().extracting(IngestResult.RunOutcome::outcome).isEqualTo(Outcome.ADDED);
    assertThat(first.runs().get(0).tasks()).isEqualTo(20);
    String runId = first.runs().get(0).runId();
    assertThat(runId).startsWith("pgbench-log-");

    IngestResult again = ingest(IngestRequest.of(a, b));
    assertThat(again.changedWarehouse()).isFalse();
    assertThat(again.runs()).singleElement().satisfies(r -> {
      assertThat(r.outcome()).isEqualTo(Outcome.ALREADY_INGESTED);
      assertThat(r.runId()).isEqualTo(runId);
    });
    assertThat(messages).anyMatch(m -> m.contains("already ingested as run " + runId + ", nothing added"));
    assertThat(count("runs")).isEqualTo(1);
    assertThat(count("tasks")).isEqualTo(20);

    Row before = runs().get(0);
    IngestResult replaced = ingest(IngestRequest.of(a, b).withReplace(true).withLabels(Map.of("os", "linux")));
    assertThat(replaced.runs()).singleElement().satisfies(r -> {
      assertThat(r.outcome()).isEqualTo(Outcome.REPLACED);
      assertThat(r.runId()).isEqualTo(runId);
    });
    assertThat(count("runs")).isEqualTo(1);
    assertThat(count("tasks")).isEqualTo(20);
    Row after = runs().get(0);
    assertThat(after.<String>getAs("os")).isEqualTo("linux");
    assertThat(after.<java.sql.Timestamp>getAs("ingested_at")).isAfter(before.<java.sql.Timestamp>getAs("ingested_at"));
  }

  /**
   * The one pass writes a source's tasks before its accounting is checked: when the check refuses
   * the source (here its second file is all rejects), the written files are removed and the
   * tasks table never names them. An accepted ingest's task files carry Delta statistics of the
   * columns reads filter by (run_id, step) and of no other; its reject files of every column but the
   * rejected line and its reason: a rejected line may echo a secret, and a statistic is a text's
   * first 32 characters, in the Delta log, which nothing scrubs.
   */
  @Test
  void aRefusedSourceLeavesNoTaskFileAndTaskAndRejectFilesKeepStatisticsOnlyOfWhatReadsFilterBy() throws Exception {
    Path good = tmp.resolve("pgbench_log.77");
    Path bad = tmp.resolve("pgbench_log.77.1");
    Files.writeString(good, "pgbench 'postgresql://u:Pw#canary?x/y@h/db'\n"
        + Files.readString(fixture("pgbench_log.4242"), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    Files.writeString(bad, "not a pgbench line\nnor this one\n", StandardCharsets.UTF_8);
    Path tasksDir = tmp.resolve("warehouse").resolve(Table.TASKS.dirName());

    assertThatThrownBy(() -> ingest(IngestRequest.of(good, bad).withFormat("pgbench-log")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("every line was rejected");
    assertThat(dataFiles(tasksDir)).as("task files of the refused source").isEmpty();
    assertThat(warehouse().exists()).isFalse();

    Files.delete(bad);
    ingest(IngestRequest.of(good).withFormat("pgbench-log"));
    assertThat(count("tasks")).isEqualTo(10);
    assertThat(dataFiles(tasksDir)).isNotEmpty();
    assertThat(DeltaLogActions.of(tasksDir, "{\"metaData\"")).singleElement().asString()
        .contains("\"" + WarehouseSchema.STATS_COLUMNS_PROPERTY + "\":\"run_id,step\"");
    assertThat(DeltaLogActions.of(tasksDir, "{\"add\"")).isNotEmpty().allSatisfy(add -> assertThat(add)
        .contains("minValues\\\":{\\\"run_id\\\":", "\\\"step\\\":").doesNotContain("latency_ns", "client_id"));
    Path rejectsDir = tmp.resolve("warehouse").resolve(Table.REJECTS.dirName());
    assertThat(DeltaLogActions.of(rejectsDir, "{\"metaData\"")).singleElement().asString()
        .contains("\"" + WarehouseSchema.STATS_COLUMNS_PROPERTY + "\":\"run_id,source_file,line_no,error_type,column\"");
    assertThat(DeltaLogActions.of(rejectsDir, "{\"add\"")).singleElement().asString()
        .contains("minValues\\\":{\\\"run_id\\\":").doesNotContain("raw_line", "reason", "canary");
  }

  private static List<Path> dataFiles(Path dir) throws java.io.IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList();
    }
  }

  /**
   * What a user feels of a small ingest is mostly Spark jobs and Delta commits: one sysbench file
   * into a new warehouse is the one pass and one write per table it fills (step_metrics,
   * ingest_files, runs). Its accounting is counted on the driver (no query), a format without
   * tasks stages no tasks table, and Delta rebuilds no file list after a new table's commit.
   */
  @Test
  void aSmallIngestIntoANewWarehouseIsTheParseAndOneJobPerTable() throws Exception {
    java.util.concurrent.atomic.AtomicInteger jobs = new java.util.concurrent.atomic.AtomicInteger();
    org.apache.spark.scheduler.SparkListener listener = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
        jobs.incrementAndGet();
      }
    };
    spark.sparkContext().addSparkListener(listener);
    IngestResult result;
    try {
      result = ingest(IngestRequest.of(fixture("oltp_point_select.txt")));
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    assertThat(jobs).as("Spark jobs of the ingest").hasValueLessThanOrEqualTo(4);
    assertThat(tmp.resolve("warehouse").resolve(Table.TASKS.dirName())).doesNotExist();
    assertThat(result.runs()).singleElement().satisfies(r -> assertThat(r.stepMetrics()).isPositive()
        .isEqualTo(count("step_metrics")));
  }

  /** Every real fixture through auto-detection and Spark: exact counts, nothing rejected. */
  @Test
  void realFixturesIngestWithAutoDetection() throws Exception {
    IngestResult result = ingest(IngestRequest.of(
        fixture("pgbench_log.4242"), fixture("pgbench_log.4242.1"), fixture("pgbench_agg.4242"),
        fixture("pgbench_agg.4242.1"), fixture("pgbench15-progress.txt"), fixture("pgbench15-failures.txt"),
        fixture("pgbench_retries.4242"), fixture("oltp_read_write.txt")));
    assertThat(result.files()).allSatisfy(f -> assertThat(f.rejected()).isZero());
    assertThat(result.runs()).extracting(IngestResult.RunOutcome::format)
        .containsExactlyInAnyOrder("pgbench-log", "pgbench-log", "pgbench-agg", "pgbench", "pgbench", "sysbench");
    assertThat(messages).anyMatch(m -> m.endsWith("pgbench_agg.4242: pgbench-agg (pgbench --aggregate-interval lines:"
        + " interval_start (epoch) and 15 fields)"));

    // The aggregate log: two threads' files merged per interval.
    String aggRun = result.runs().stream().filter(r -> r.format().equals("pgbench-agg")).findFirst().orElseThrow().runId();
    List<Row> tx = warehouse().stepMetrics().where(col("run_id").equalTo(aggRun).and(col("metric").equalTo("transactions")))
        .orderBy("interval_start_s").collectAsList();
    List<String> agg = Files.readAllLines(fixture("pgbench_agg.4242"));
    List<String> agg1 = Files.readAllLines(fixture("pgbench_agg.4242.1"));
    assertThat(tx).hasSize(3);
    assertThat(tx.get(0).<Double>getAs("value"))
        .isEqualTo(Double.parseDouble(agg.get(0).split(" ")[1]) + Double.parseDouble(agg1.get(0).split(" ")[1]));
    Row avg = warehouse().stepMetrics().where(col("run_id").equalTo(aggRun).and(col("metric").equalTo("latency_avg"))
        .and(col("interval_start_s").equalTo(0.0))).first();
    String[] f0 = agg.get(0).split(" ");
    String[] f1 = agg1.get(0).split(" ");
    double expectedAvgMs = (Double.parseDouble(f0[2]) + Double.parseDouble(f1[2]))
        / (Double.parseDouble(f0[1]) + Double.parseDouble(f1[1])) / 1000;
    assertThat(avg.<Double>getAs("value")).isCloseTo(expectedAvgMs, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(warehouse().stepMetrics().where(col("run_id").equalTo(aggRun).and(col("metric").startsWith("_"))).count()).isZero();

    // workload: the tool, whatever its format; what ran within it is the step.
    assertThat(warehouse().runs().collectAsList()).allSatisfy(r -> assertThat(r.<String>getAs("workload"))
        .as(r.<String>getAs("source_format")).isEqualTo(r.<String>getAs("source_format").startsWith("pgbench")
            ? "pgbench" : "sysbench"));
    // pgbench summary: dimensions lifted from the output; the transaction type is the step.
    Row failuresRun = warehouse().runs().where(col("source_format").equalTo("pgbench")
        .and(col("clients").equalTo(4))).first();
    assertThat(warehouse().stepMetrics().where(col("run_id").equalTo(failuresRun.<String>getAs("run_id")))
        .select("step").distinct().collectAsList()).extracting(r -> r.getString(0)).containsExactly("conflict.sql");
    assertThat(failuresRun.<String>getAs("db_version")).isEqualTo("14.22");
    assertThat(failuresRun.<Integer>getAs("db_major")).isEqualTo(14);
    // sysbench: step from the file name; histogram rows with buckets.
    Row hist = warehouse().stepMetrics().where(col("metric").equalTo("latency_histogram"))
        .agg(org.apache.spark.sql.functions.sum("value"), org.apache.spark.sql.functions.countDistinct("step")).first();
    Row events = warehouse().stepMetrics().where(col("metric").equalTo("events").and(col("step").equalTo("oltp_read_write"))).first();
    assertThat(hist.getDouble(0)).isEqualTo(events.<Double>getAs("value"));
    // Six runs, eight files: the tables of a row per run or file get one Parquet file per ingest.
    for (dev.benchlake.warehouse.WarehouseSchema.Table table : List.of(dev.benchlake.warehouse.WarehouseSchema.Table.RUNS,
        dev.benchlake.warehouse.WarehouseSchema.Table.INGEST_FILES)) {
      assertThat(spark.read().format("delta").load(warehouse().path(table)).inputFiles()).as(table.dirName()).hasSize(1);
    }
    // The retries log: 7th field read as retries (the head shows failures, no skips).
    assertThat(warehouse().tasks().where(col("sqlstate").equalTo("40001")).count()).isEqualTo(
        Files.readAllLines(fixture("pgbench_retries.4242")).stream().filter(l -> l.contains("serialization")).count());
  }

  /** A user's {@code --label workload=…} is the run's workload: the tool's name never overwrites it. */
  @Test
  void aWorkloadLabelWinsOverTheToolsName() throws Exception {
    java.util.SortedMap<String, String> labels = new java.util.TreeMap<>(java.util.Map.of("workload", "nightly-oltp"));
    ingest(new IngestRequest(List.of(fixture("oltp_point_select.txt"), fixture("pgbench15-progress.txt")),
        IngestRequest.AUTO, null, null, labels, false, IngestRequest.DEFAULT_CHUNK_BYTES, null));
    assertThat(warehouse().runs().select("workload").collectAsList()).extracting(r -> r.getString(0))
        .containsExactly("nightly-oltp", "nightly-oltp");
  }
}
