package dev.benchlake.ingest;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Atomicity under kill -9 in the middle of a commit: a real ingest process (java with this test's
 * classpath and Spark JVM flags) killed while it commits its tasks; readers must not see a partial
 * run, and a re-run must then complete exactly once.
 *
 * <p>What this class keeps is the one kill no other suite makes: inside a commit. It used to kill
 * after the rejects' commit and after the tasks' commit too; those are {@link CommitPointKillTest}'s
 * commit points 1 and 4, which it kills at deterministically (each checked against the log files
 * that appeared, the warehouse read after the kill, every row on disk after the re-run), so the
 * two extra child JVMs proved nothing new. Kills before any commit (JVM start, Spark start,
 * parsing, staging) are {@link RandomKillIngestTest}'s.
 */
@org.junit.jupiter.api.Tag("integration")
class KillIngestTest extends IngestTestSupport {
  static {
    ChildJvmArchive.makeInBackground(); // while this JVM starts its Spark session
  }

  // What a kill point needs is the commit, whose length does not grow with the lines (the tasks
  // are staged before it: their commit is one log entry): 5,000 lines, in several chunks (so
  // several staged task files), do what 50,000 did, in less time per child.
  private static final int LINES = 5_000;
  private static final int REJECTED = LINES / 1_000;
  private static final int TASKS = LINES - REJECTED;

  @Test
  void anIngestKilledDuringItsTasksCommitLeavesNoPartialRunAndARerunCompletesExactlyOnce() throws Exception {
    Path log = PgbenchLogs.withAborts(tmp.resolve("pgbench_log.777"), LINES, 1_000, 0); // rejects, so every table is written
    Path warehouseDir = tmp.resolve("warehouse");

    // The tables commit in the order rejects, ingest_files, step_metrics, tasks, runs (the commit
    // point). The child says when it begins the tasks' commit and carries on; 300 ms later it is
    // killed, in that commit or just after it, before the runs' commit.
    String point = "during:tasks";
    Process child = KillableIngest.start(point, warehouseDir, false, tmp.resolve("child.err"), log);
    try {
      KillableIngest.awaitPoint(child, point);
      Thread.sleep(300);
    } finally {
      child.destroyForcibly(); // SIGKILL on Unix
      child.waitFor(60, TimeUnit.SECONDS);
    }
    assertThat(child.exitValue()).as("killed at " + point).isEqualTo(137);
    // The kill is before the first commit of runs (the commit point), and a warehouse exists for
    // readers only once runs does: so a reader sees no run, whole or partial. What the killed
    // ingest committed (its rejects and ingest_files rows, maybe its tasks) is checked on disk
    // below, and must be cleaned up by the re-run.
    assertThat(warehouse().exists()).as("a runs table after a kill at " + point).isFalse();
    assertThat(spark.read().format("delta").load(warehouse().path(Table.REJECTS)).count())
        .as("the killed ingest's rejects are on disk").isEqualTo(REJECTED);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.INGEST_FILES)).count())
        .as("the killed ingest's per-file row is on disk too").isEqualTo(1);

    IngestResult rerun = ingest(IngestRequest.of(log).withFormat("pgbench-log"));
    assertThat(rerun.runs()).singleElement().satisfies(r -> assertThat(r.tasks()).isEqualTo(TASKS));

    assertThat(warehouse().runs().count()).isEqualTo(1);
    assertThat(warehouse().tasks().count()).isEqualTo(TASKS);
    assertThat(warehouse().tasks().select("client_id", "seq").distinct().count()).isEqualTo(TASKS);
    assertThat(warehouse().rejects().count()).isEqualTo(REJECTED);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.TASKS)).count())
        .as("orphans of the killed ingest were removed").isEqualTo(TASKS);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.REJECTS)).count()).isEqualTo(REJECTED);
    assertThat(spark.read().format("delta").load(warehouse().path(Table.INGEST_FILES)).count())
        .as("one per-file row, the killed ingest's removed").isEqualTo(1);
    assertThat(warehouse().ingestFiles().first().<Long>getAs("rejected_lines")).isEqualTo(REJECTED);
    assertThat(warehouse().tasks().where(col("source_line").equalTo(LINES)).count()).isEqualTo(1);

    // And once more: nothing added.
    IngestResult again = ingest(IngestRequest.of(log).withFormat("pgbench-log"));
    assertThat(again.changedWarehouse()).isFalse();
    assertThat(warehouse().tasks().count()).isEqualTo(TASKS);
  }
}
