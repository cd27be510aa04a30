package dev.benchlake.ingest;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * The real {@code ingest} command (its own JVM, as a user starts it) killed with SIGKILL at random
 * moments, not only at the commit points {@link CommitPointKillTest} stops at: JVM start, Spark start,
 * scanning, parsing, any byte of any table write, the commit, after it. {@link #KILLS} kills,
 * drawn from a fixed seed over the time an ingest takes here, one in each of {@link #KILLS} equal
 * slices of it (so that the early moments and the writes and commit are both hit, whatever the
 * seed): 2 in CI, 8 with {@code -Dbenchlake.kill.full=true}. After every kill the warehouse must
 * read and show only whole runs; at the end one re-run of every file must land each run exactly
 * once and remove what the killed ones left. Also: ingest processes racing on one warehouse.
 */
@org.junit.jupiter.api.Tag("integration")
class RandomKillIngestTest extends IngestTestSupport {
  static {
    ChildJvmArchive.makeInBackground(); // while this JVM starts its Spark session
  }

  /**
   * 2 in CI, 8 for the full sweep. With the fixed seed the CI kills land at 17 % and 77 % of a whole
   * ingest's time: during the JVM's and Spark's start (before any commit), and late in its work
   * (parsing, staging or writing; which depends on the machine's load). Neither is a moment another
   * suite kills at ({@link CommitPointKillTest} kills right after each commit, {@link KillIngestTest}
   * inside the tasks' one), so both stay.
   */
  static final int KILLS = Boolean.getBoolean("benchlake.kill.full") ? 8 : 2;
  private static final long SEED = 20260108L;
  private static final int LINES = 5_000;

  /** A pgbench log of {@code LINES} lines, one in 2500 rejected; {@code salt} makes its content (its run) unique. */
  private Path log(String name, int salt) throws IOException {
    return PgbenchLogs.withAborts(tmp.resolve(name), LINES, 2500, salt);
  }

  private static final long TASKS = LINES - LINES / 2500;

  private Process ingestProcess(Path warehouse, Path file, Path stderr) throws IOException {
    return new ProcessBuilder(ChildJvm.command(IngestMain.class, "--warehouse", warehouse.toString(),
        "--format", "pgbench-log", "--master", "local[2]", file.toString()))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(stderr.toFile()).start();
  }

  @Test
  void killedAtRandomMomentsTheWarehouseShowsOnlyWholeRunsAndARerunLandsEachOnce() throws Exception {
    Path warehouseDir = tmp.resolve("warehouse");
    // One ingest to the end: it must work, and it says how long an ingest takes here.
    Path first = log("pgbench_log.1000", 0);
    long startNs = System.nanoTime();
    Process whole = ingestProcess(warehouseDir, first, tmp.resolve("first.err"));
    assertThat(whole.waitFor(300, TimeUnit.SECONDS)).isTrue();
    long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    assertThat(whole.exitValue()).as(Files.readString(tmp.resolve("first.err"), StandardCharsets.UTF_8)).isZero();

    Random random = new Random(SEED);
    List<Path> files = new ArrayList<>(List.of(first));
    List<Long> killedAtMs = new ArrayList<>();
    for (int k = 1; k <= KILLS; k++) {
      Path file = log("pgbench_log." + (1000 + k), k);
      files.add(file);
      // Uniform within slice k of [0, 1.1 x the whole ingest's time]: the last slice reaches past its end.
      long delayMs = (long) ((k - 1 + random.nextDouble()) / KILLS * durationMs * 1.1);
      killedAtMs.add(delayMs);
      Process child = ingestProcess(warehouseDir, file, tmp.resolve("kill-" + k + ".err"));
      boolean ended = child.waitFor(delayMs, TimeUnit.MILLISECONDS);
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      if (ended) {
        assertThat(child.exitValue()).as("an ingest that ended before its kill").isZero();
      }
      assertOnlyWholeRuns("after a kill at " + delayMs + " ms of ~" + durationMs + " ms");
    }

    IngestResult rerun = ingest(IngestRequest.of(files.toArray(Path[]::new)).withFormat("pgbench-log"));
    assertThat(rerun.runs()).as("kills at " + killedAtMs + " ms").hasSize(files.size());
    Warehouse w = warehouse();
    assertThat(w.runs().count()).isEqualTo(files.size());
    assertThat(w.runs().select("run_id").distinct().count()).isEqualTo(files.size());
    assertOnlyWholeRuns("after the re-run");
    assertThat(w.tasks().count()).isEqualTo(TASKS * files.size());
    assertThat(w.tasks().select("run_id", "client_id", "seq").distinct().count()).isEqualTo(TASKS * files.size());
    assertThat(spark.read().format("delta").load(w.path(Table.TASKS)).count())
        .as("rows left by the killed ingests were removed").isEqualTo(TASKS * files.size());
    assertThat(spark.read().format("delta").load(w.path(Table.REJECTS)).count()).isEqualTo((LINES - TASKS) * files.size());
  }

  /** Every visible run has all its tasks and rejects, no more; no task or reject is visible without its run. */
  private void assertOnlyWholeRuns(String when) {
    Warehouse w = warehouse();
    if (!w.exists()) {
      return;
    }
    List<Row> runs = w.runs().select("run_id", "tasks_accepted", "lines_rejected").collectAsList();
    for (Row run : runs) {
      assertThat(run.getLong(1)).as("tasks_accepted " + when).isEqualTo(TASKS);
      assertThat(w.tasks().where(col("run_id").equalTo(run.getString(0))).count()).as("tasks of a run " + when)
          .isEqualTo(TASKS);
      assertThat(w.rejects().where(col("run_id").equalTo(run.getString(0))).count()).as("rejects " + when)
          .isEqualTo(run.getLong(2));
    }
    assertThat(w.tasks().count()).as("visible tasks " + when).isEqualTo(TASKS * runs.size());
  }

  /**
   * Two ingest processes of the same file at once on one warehouse (threads racing, also on
   * different files, are {@link ConcurrentIngestTest}): each exits 0 (the second finds the run
   * there) or fails cleanly (exit 1 or 2, one line, no stack trace), and the run is in the
   * warehouse exactly once.
   */
  @Test
  void racingIngestProcessesEachLandOnceOrFailCleanly() throws Exception {
    Path warehouseDir = tmp.resolve("warehouse");
    Path a = log("pgbench_log.2000", 100);
    List<Path> inputs = List.of(a, a);
    List<Process> children = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      children.add(ingestProcess(warehouseDir, inputs.get(i), tmp.resolve("race-" + i + ".err")));
    }
    List<Integer> codes = new ArrayList<>();
    for (int i = 0; i < children.size(); i++) {
      assertThat(children.get(i).waitFor(300, TimeUnit.SECONDS)).isTrue();
      int code = children.get(i).exitValue();
      codes.add(code);
      String err = Files.readString(tmp.resolve("race-" + i + ".err"), StandardCharsets.UTF_8);
      assertThat(code).as(err).isIn(0, 1, 2);
      assertThat(err).as("stderr of racer " + i).doesNotContain("\tat ");
      if (code != 0) {
        assertThat(err.lines().filter(l -> l.startsWith("ingest: ")).toList()).as(err).hasSize(1);
      }
    }
    // Whatever the interleaving, a re-run adds the run only if neither racer did, and it is there once.
    assertThat(ingest(IngestRequest.of(a).withFormat("pgbench-log")).changedWarehouse()).as("exit codes " + codes)
        .isEqualTo(!codes.contains(0));
    Warehouse w = warehouse();
    assertThat(w.runs().count()).as("exit codes " + codes).isEqualTo(1);
    assertThat(w.tasks().count()).isEqualTo(TASKS);
    assertThat(w.tasks().select("run_id", "client_id", "seq").distinct().count()).isEqualTo(TASKS);
  }
}
