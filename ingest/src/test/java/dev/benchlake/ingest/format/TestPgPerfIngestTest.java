package dev.benchlake.ingest.format;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.SharedData;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult;
import dev.benchlake.ingest.IngestTestSupport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** The real TestPostgresqlPerf results (../shared/data/testpgperf), ingested whole. */
@org.junit.jupiter.api.Tag("integration")
class TestPgPerfIngestTest extends IngestTestSupport {
  private static final String LINUX_7FEF = "details.7fef1b67-3dfb-4190-869a-3ff7cce113c1.txt";

  @Test
  void ingestsEveryDetailsFileAsOneRunWithExactCounts() throws Exception {
    Path data = SharedData.require("testpgperf");
    IngestResult linux = ingest(IngestRequest.of(data.resolve("linux")).withLabels(Map.of("os", "linux", "date", "2016-03-01")));
    IngestResult windows = ingest(IngestRequest.of(data.resolve("windows")).withLabels(Map.of("os", "windows")));

    // 3 details + 3 summaries per folder; every details line accepted, 5000 each.
    assertThat(linux.files()).hasSize(6);
    assertThat(linux.files().stream().filter(f -> f.path().contains("details.")))
        .allSatisfy(f -> assertThat(f).extracting(IngestResult.FileAccount::lines, IngestResult.FileAccount::accepted,
            IngestResult.FileAccount::rejected).containsExactly(5000L, 5000L, 0L));
    assertThat(linux.runs()).hasSize(3).allSatisfy(r -> assertThat(r.tasks()).isEqualTo(5000));
    assertThat(windows.runs()).hasSize(3);
    assertThat(messages).anyMatch(m -> m.contains(LINUX_7FEF) && m.contains(": testpgperf ("));

    assertThat(count("runs")).isEqualTo(6);
    assertThat(count("tasks")).isEqualTo(30_000);
    assertThat(count("rejects")).isZero();
    List<Row> failed = warehouse().tasks().where(col("ok").equalTo(false)).collectAsList();
    assertThat(failed).hasSize(8)
        .allSatisfy(t -> assertThat(t.<String>getAs("error")).isEqualTo("Timeout while getting a connection from pool."))
        .allSatisfy(t -> assertThat(t.<Object>getAs("latency_ns")).isNull());
    Row failedRun = warehouse().runs().where(col("run_id").equalTo(failed.get(0).<String>getAs("run_id"))).first();
    assertThat(failedRun.<scala.collection.Seq<Row>>getAs("source_files").head().getString(0)).endsWith(LINUX_7FEF);
    assertThat(failedRun.<String>getAs("os")).isEqualTo("linux");

    // Exact values: the first line of the 7fef file, 52654390 ticks ending at 03:47:09.
    Row first = warehouse().tasks().where(col("run_id").equalTo(failedRun.<String>getAs("run_id"))
        .and(col("source_line").equalTo(1))).first();
    assertThat(first.<Long>getAs("latency_ns")).isEqualTo(5_265_439_000L);
    assertThat(first.<java.sql.Timestamp>getAs("end_ts").toInstant()).hasToString("2016-03-01T03:47:09Z");
    // The author's published Linux figures: min 0.1249964 s and max 108.2615642 s over valid tasks.
    Row range = warehouse().tasks().where(col("ok").and(col("run_id").isin(linux.runs().stream()
        .map(IngestResult.RunOutcome::runId).toArray()))).agg(
            org.apache.spark.sql.functions.min("latency_ns"), org.apache.spark.sql.functions.max("latency_ns"),
            org.apache.spark.sql.functions.count("latency_ns")).first();
    assertThat(range.getLong(0)).isEqualTo(124_996_400L);
    assertThat(range.getLong(1)).isEqualTo(108_261_564_200L);
    assertThat(range.getLong(2)).isEqualTo(14_992L);
    // Without a date the run has no start/finish.
    assertThat(warehouse().runs().where(col("os").equalTo("windows")).collectAsList())
        .allSatisfy(r -> assertThat(r.<Object>getAs("started_at")).isNull());
  }
}
