package dev.benchlake.ingest;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Atomicity under kill -9: real ingest processes (java with this test's classpath and Spark JVM
 * flags) are killed at three points of the commit; readers must never see a partial run, and a
 * re-run must then complete exactly once.
 */
@org.junit.jupiter.api.Tag("integration")
class KillIngestTest extends IngestTestSupport {
  // What a kill point needs is the commit, whose length does not grow with the lines (the tasks
  // are staged before it: their commit is one log entry): 5,000 lines, in several chunks (so
  // several staged task files), do what 50,000 did, in less time per child.
  private static final int LINES = 5_000;
  private static final int REJECTED = LINES / 1_000;
  private static final int TASKS = LINES - REJECTED;

  @Test
  void killedIngestsLeaveNoPartialRunAndARerunCompletesExactlyOnce() throws Exception {
    Path log = PgbenchLogs.withAborts(tmp.resolve("pgbench_log.777"), LINES, 1_000, 0); // rejects, so every table is written
    Path warehouseDir = tmp.resolve("warehouse");

    // The tables commit in the order rejects, ingest_files, step_metrics, tasks, runs (the commit
    // point). after:rejects is the first state with a committed row to hide and remove, and it
    // already holds the staged (uncommitted) task files that a kill before any commit would leave:
    // a kill at "before:rejects" would add a child JVM (tens of seconds) and no new state. Kills
    // before any commit (JVM start, Spark start, parsing, staging) are RandomKillIngestTest's.
    for (String point : List.of("after:rejects", "during:tasks", "after:tasks")) {
      Process child = KillableIngest.start(point, warehouseDir, false, tmp.resolve("child.err"), log);
      try {
        KillableIngest.awaitPoint(child, point);
        if (point.startsWith("during:")) {
          Thread.sleep(300);
        }
      } finally {
        child.destroyForcibly(); // SIGKILL on Unix
        child.waitFor(60, TimeUnit.SECONDS);
      }
      assertThat(child.exitValue()).as("killed at " + point).isEqualTo(137);
      // Every point is before the first commit of runs (the commit point), and a warehouse exists
      // for readers only once runs does: so a reader sees no run, whole or partial. (This was an
      // `if (exists())` around reader checks, which therefore never ran.) What the killed ingests
      // committed or staged is checked on disk below, and must be cleaned up by the re-run.
      assertThat(warehouse().exists()).as("a runs table after a kill at " + point).isFalse();
    }
    // The kill after the tasks commit left every task on disk, invisible: the protection is real.
    long orphans = spark.read().format("delta").load(warehouse().path(Table.TASKS)).count();
    assertThat(orphans).isGreaterThanOrEqualTo(TASKS);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.INGEST_FILES)).count())
        .as("the killed ingests' per-file rows are on disk too").isGreaterThanOrEqualTo(1);

    IngestResult rerun = ingest(IngestRequest.of(log).withFormat("pgbench-log"));
    assertThat(rerun.runs()).singleElement().satisfies(r -> assertThat(r.tasks()).isEqualTo(TASKS));

    assertThat(warehouse().runs().count()).isEqualTo(1);
    assertThat(warehouse().tasks().count()).isEqualTo(TASKS);
    assertThat(warehouse().tasks().select("client_id", "seq").distinct().count()).isEqualTo(TASKS);
    assertThat(warehouse().rejects().count()).isEqualTo(REJECTED);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.TASKS)).count())
        .as("orphans of the killed ingests were removed").isEqualTo(TASKS);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.REJECTS)).count()).isEqualTo(REJECTED);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.INGEST_FILES)).count())
        .as("one per-file row, the killed ingests' removed").isEqualTo(1);
    assertThat(warehouse().ingestFiles().first().<Long>getAs("rejected_lines")).isEqualTo(REJECTED);
    assertThat(warehouse().tasks().where(col("source_line").equalTo(LINES)).count()).isEqualTo(1);

    // And once more: nothing added.
    IngestResult again = ingest(IngestRequest.of(log).withFormat("pgbench-log"));
    assertThat(again.changedWarehouse()).isFalse();
    assertThat(warehouse().tasks().count()).isEqualTo(TASKS);
  }
}
