package dev.benchlake.ingest.format;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult;
import dev.benchlake.ingest.IngestTestSupport;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * {@link CsvMappingProperties}' cases through the real ingest (Spark, the accounting, the
 * warehouse): a mapped CSV without a timestamp column crashed there ({@code NullPointerException}
 * merging the runs' null start times), so the cases without one come here, beside a timestamp read
 * as the start and one read as the end (wide tables go through ingest in {@code LoadgenAndCsvIngestTest}).
 * Each: every line accepted, zero rejects, and the warehouse holds exactly the reference reader's
 * tasks, each run labelled with its run column's value (with a header and without one).
 */
@org.junit.jupiter.api.Tag("integration")
class CsvMappingIngestTest extends IngestTestSupport {
  @Test
  void aHandfulOfMappingsThroughTheRealIngestGiveTheReferenceRowsAndNoReject() throws Exception {
    List<CsvMappingCase> cases = List.of(
        // header, one run, no timestamp: the crash of issue 26
        CsvMappingCase.tasks(new CsvMappingCase.TasksShape(true, ',', false, true, "none", false, false, false, false,
            false, "ms", 0, false, false, 6, 11)),
        // numbered columns, a run column, no timestamp, every other optional column
        CsvMappingCase.tasks(new CsvMappingCase.TasksShape(false, ';', true, false, "none", false, true, true, true,
            true, "us", 0, true, false, 12, 12)),
        // a run column and an epoch timestamp read as the end; an ISO one with an offset read as the start
        CsvMappingCase.tasks(new CsvMappingCase.TasksShape(true, '\t', true, true, "epoch_ms", true, false, true, false,
            false, "s", 3, false, true, 8, 13)),
        CsvMappingCase.tasks(new CsvMappingCase.TasksShape(true, '|', false, true, "iso-offset", false, true, true, true,
            true, "ns", 6, true, false, 5, 14)));
    for (int i = 0; i < cases.size(); i++) {
      CsvMappingCase c = cases.get(i);
      Path[] files = c.write(tmp.resolve("case" + i), "results");
      IngestResult result = ingest(IngestRequest.of(files[0]).withMapping(files[1]));

      assertThat(result.files()).as(c.toString()).singleElement().satisfies(f -> {
        assertThat(f.lines()).isEqualTo(c.lines().size());
        assertThat(f.accepted()).isEqualTo(f.lines());
        assertThat(f.rejected()).isZero();
      });
      List<String> runIds = result.runs().stream().map(IngestResult.RunOutcome::runId).toList();
      boolean multiRun = ((java.util.Map<?, ?>) c.mapping().get("columns")).containsKey("run");
      assertThat(tasks(runIds, multiRun)).as(c.toString()).containsExactlyInAnyOrderElementsOf(c.expected());
    }
    assertThat(count("rejects")).isZero();
  }

  /** The tasks of these runs as {@link CsvMappingCase#task} renders them; the run part is the run's {@code run} label. */
  private List<String> tasks(List<String> runIds, boolean multiRun) {
    List<String> out = new ArrayList<>();
    for (Row r : warehouse().tasks().join(warehouse().runs(), "run_id").where(col("run_id").isin(runIds.toArray()))
        .collectAsList()) {
      String run = multiRun ? r.<scala.collection.Map<String, String>>getAs("labels").get("run").get() : "";
      out.add(CsvMappingCase.task(run, r.getAs("step"), r.<Integer>getAs("client_id"), r.<Long>getAs("seq"),
          micros(r.getAs("start_ts")), micros(r.getAs("end_ts")), r.<Long>getAs("latency_ns"), r.<Boolean>getAs("ok"),
          r.getAs("error")));
    }
    return out;
  }

  private static Long micros(Timestamp ts) {
    return ts == null ? null : Math.addExact(Math.multiplyExact(ts.toInstant().getEpochSecond(), 1_000_000L),
        ts.toInstant().getNano() / 1000);
  }
}
