package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.core.raw.TableHealth;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table health around every step on a real server: the write step's own dead tuples are in its
 * after-snapshot (the statistics are read after its connections flushed them), the next step
 * starts from that state with {@code --between-steps none} and from a vacuumed one with
 * {@code vacuum-analyze}; PostgreSQL 14's checkpointer figures come from pg_stat_bgwriter.
 * The servers run without autovacuum: an autoanalyze during the write step (its threshold is 250
 * changed rows on these tables) replaces n_dead_tup by its sample's estimate, which made the exact
 * counts below a matter of timing (CI saw 416 of 1,500).
 */
@org.junit.jupiter.api.Tag("integration")
class TableHealthTest {
  private static final List<String> STEPS = List.of("update-index", "point-select");
  private static final int ROWS = 2_000;
  private static final long UPDATES = 1_500;

  @TempDir
  Path tmp;

  private static final Map<String, String> NO_AUTOVACUUM = Map.of("autovacuum", "off");

  private RunManifest run(EmbeddedServer server, String name, BetweenSteps between) throws Exception {
    Path out = tmp.resolve(name);
    RunResult result = Loadgen.run(TestServers.sharedConfig(out)
        .target(new LoadgenConfig.Embedded(server.major(), Map.of(), null)).workload("sysbench").steps(STEPS).tables(2)
        .tableSize(ROWS).mode(LoadgenConfig.Mode.closed(2)).tasks(UPDATES).betweenSteps(between).build(),
        ProgressListener.NONE, server);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    return TestServers.manifest(out);
  }

  @Test
  void theWriteStepsDeadTuplesAreSeenAfterItAndAtTheNextStepsStartUnlessVacuumed(@TempDir Path pgDir)
      throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(17, NO_AUTOVACUUM, 20, pgDir))) {
      deadTuplesAreSeenAfterTheWriteStep(server);
    }
  }

  /**
   * PostgreSQL 14's counters reach readers through the stats collector's file: the probe waits for
   * a file written after the step's connections left (not a fixed 600 ms), and must still see every
   * one of the step's updates, run after run.
   */
  @Test
  void onPostgres14TheWriteStepsDeadTuplesAreSeenThroughTheCollector(@TempDir Path pgDir) throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(14, NO_AUTOVACUUM, 20, pgDir))) {
      // (Its n_live_tup after the load is not checked: 14 counts the COPY's rows again when they
      // reach the collector after the VACUUM's reset, as they may.)
      for (int i = 0; i < 4; i++) {
        List<StepHealth> steps = run(server, "run-" + i, BetweenSteps.NONE).stepHealth();
        assertThat(steps.get(0).healthBefore().nDeadTup()).as("run %d: the load ends with VACUUM ANALYZE", i)
            .isZero();
        assertThat(steps.get(0).healthAfter().nDeadTup()).as("run %d: the step's own updates", i).isEqualTo(UPDATES);
        assertThat(steps.get(1).healthBefore().nDeadTup()).isEqualTo(UPDATES);
      }
    }
  }

  /**
   * The case the wait is for: another reader had the collector write a file just before the
   * step's last connection exited, with that connection's last counters still unsent. A snapshot
   * that read at once would be served that file, under 500 ms old, and miss them.
   */
  @Test
  void onPostgres14ASnapshotIsServedAFileWrittenAfterTheConnectionsLeft(@TempDir Path pgDir) throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(14, NO_AUTOVACUUM, 20, pgDir));
        Connection other = TestServers.connect(server);
        Statement st = other.createStatement()) {
      st.execute("create table t (k int primary key, v int)");
      st.execute("insert into t select g, 0 from generate_series(1, 100) g");
      st.execute("vacuum analyze t");
      Instant since;
      try (ResultSet rs = st.executeQuery("select clock_timestamp()")) {
        rs.next();
        since = rs.getObject(1, OffsetDateTime.class).toInstant();
      }
      String application = "benchlake-table-health-test";
      try (Connection step = DriverManager.getConnection(
          server.jdbcUrl() + "?ApplicationName=" + application, server.user(), "");
          Statement updates = step.createStatement()) {
        updates.executeUpdate("update t set v = v + 1"); // a new backend's first commit reports at once ...
        updates.executeUpdate("update t set v = v + 1"); // ... this one waits for 500 ms, or the exit
        st.execute("select pg_stat_clear_snapshot()");
        try (ResultSet rs = st.executeQuery("select n_dead_tup from pg_stat_user_tables")) {
          rs.next(); // the collector writes a file now, without the second update
        }
      }
      try (dev.benchlake.loadgen.db.TableHealthProbe probe = new dev.benchlake.loadgen.db.TableHealthProbe(
          TestServers.connect(server), 14, List.of("t"), application)) {
        assertThat(probe.take(since, true).summary().nDeadTup()).as("both updates").isEqualTo(200);
      }
    }
  }

  /**
   * After {@code --between-steps}' VACUUM ANALYZE, PostgreSQL 14's next snapshot waits for a stats file
   * written after the maintenance (no longer a flat 600 ms): the after-snapshot had the collector write a
   * file just before, still under 500 ms old when the next step starts, that shows the dead tuples the
   * VACUUM removed. A snapshot read at once would report them at the next step's start.
   */
  @Test
  void onPostgres14TheSnapshotAfterVacuumAnalyzeSeesItsEffect(@TempDir Path pgDir) throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(14, NO_AUTOVACUUM, 20, pgDir));
        Connection other = TestServers.connect(server);
        Statement st = other.createStatement()) {
      try (Connection load = TestServers.connect(server); Statement ddl = load.createStatement()) {
        // Its own connection, which sends the insert's counts as it exits: before any VACUUM's.
        ddl.execute("create table t (k int primary key, v int)");
        ddl.execute("insert into t select g, 0 from generate_series(1, 100) g");
      }
      String application = "benchlake-table-health-test";
      try (dev.benchlake.loadgen.db.TableHealthProbe probe = new dev.benchlake.loadgen.db.TableHealthProbe(
          TestServers.connect(server), 14, List.of("t"), application)) {
        for (int i = 0; i < 3; i++) {
          Instant since;
          try (ResultSet rs = st.executeQuery("select clock_timestamp()")) {
            rs.next();
            since = rs.getObject(1, OffsetDateTime.class).toInstant();
          }
          try (Connection step = DriverManager.getConnection(
              server.jdbcUrl() + "?ApplicationName=" + application, server.user(), "");
              Statement updates = step.createStatement()) {
            updates.executeUpdate("update t set v = v + 1");
          }
          assertThat(probe.take(since, true).summary().nDeadTup()).as("round %d: the step's updates", i)
              .isEqualTo(100);
          probe.maintain(BetweenSteps.VACUUM_ANALYZE);
          TableHealth next = probe.take(null, true).summary();
          assertThat(next.nDeadTup()).as("round %d: vacuumed", i).isZero();
          assertThat(next.nLiveTup()).as("round %d", i).isEqualTo(100);
        }
      }
    }
  }

  private void deadTuplesAreSeenAfterTheWriteStep(EmbeddedServer server) throws Exception {
    RunManifest none = run(server, "none", BetweenSteps.NONE);
    assertThat(none.betweenSteps()).isEqualTo("none");
    List<StepHealth> steps = none.stepHealth();
    assertThat(steps).extracting(StepHealth::step).isEqualTo(STEPS);
    StepHealth writes = steps.get(0);
    assertThat(writes.healthBefore().tables()).isEqualTo(2);
    assertThat(writes.healthBefore().nLiveTup()).isEqualTo(2L * ROWS);
    assertThat(writes.healthBefore().nDeadTup()).as("the load ends with VACUUM ANALYZE").isZero();
    // Every measured update (and its warm-up, none here) leaves one dead tuple: k is indexed, so no HOT update.
    assertThat(writes.healthAfter().nDeadTup()).as("the step's own updates, flushed before the snapshot")
        .isEqualTo(UPDATES);
    assertThat(Instant.parse(writes.healthAfter().takenAt())).isAfter(Instant.parse(writes.healthBefore().takenAt()));
    assertThat(writes.healthAfter().checkpoints()).isNotNull();
    assertThat(writes.maintenanceAfter()).isNull();
    StepHealth reads = steps.get(1);
    assertThat(reads.healthBefore().nDeadTup()).isEqualTo(UPDATES);
    assertThat(reads.healthBefore().deadFraction()).isCloseTo(UPDATES / (2.0 * ROWS + UPDATES), org.assertj.core.data.Offset.offset(1e-9));

    resourcesOfTheWriteStep(none);
    theWindowLeavesOutTheWarmUpAndIsProfiled(server);

    RunManifest vacuumed = run(server, "vacuum", BetweenSteps.VACUUM_ANALYZE);
    assertThat(vacuumed.betweenSteps()).isEqualTo("vacuum-analyze");
    StepHealth first = vacuumed.stepHealth().get(0);
    StepHealth second = vacuumed.stepHealth().get(1);
    assertThat(first.healthAfter().nDeadTup()).isEqualTo(UPDATES);
    assertThat(first.maintenanceAfter()).isEqualTo("vacuum-analyze");
    assertThat(second.healthBefore().nDeadTup()).as("vacuumed between the steps").isZero();
    assertThat(second.maintenanceAfter()).as("nothing after the last step").isNull();
  }

  /**
   * The write step's resource figures against known answers (issue 48): each of its 1,500 tasks is
   * one autocommit UPDATE, so one commit a task (and the snapshots' and connections' own, a few dozen at
   * most) and no rollback; each
   * writes at least the new row's image (a sysbench row: 24-byte header, id, k, c char(120), pad
   * char(60): ~215 bytes) and its commit record, and at most the update, two index insertions and
   * the commit (~450 bytes) plus the full-page images it reports; the server's and the client's
   * CPU time and context switches were measured, not left out.
   */
  private static void resourcesOfTheWriteStep(RunManifest run) {
    dev.benchlake.core.raw.StepResources writes = run.stepResources().get(0);
    assertThat(writes.step()).isEqualTo("update-index");
    assertThat(writes.tasks()).isEqualTo(UPDATES);
    Map<String, Double> perOp = new java.util.TreeMap<>();
    for (dev.benchlake.core.raw.ResourceMetric m : dev.benchlake.core.raw.ResourceMetric.values()) {
      m.perOperation(writes).ifPresent(v -> perOp.put(m.metric(), v));
    }
    assertThat(perOp).as("every figure measured: %s", writes.notMeasured()).containsKeys("server_cpu_us_per_op",
        "server_cs_per_op", "client_cpu_us_per_op", "client_cs_per_op", "wal_bytes_per_op", "blks_hit_per_op",
        "io_write_bytes_per_op");
    assertThat(perOp.get("commits_per_op")).as("%s", perOp).isBetween(1.0, 1.05);
    assertThat(perOp.get("rollbacks_per_op")).isZero();
    assertThat(perOp.get("wal_bytes_per_op")).as("%s", perOp).isBetween(250.0,
        450 + 8_192 * perOp.get("wal_fpi_per_op") + 100);
    assertThat(perOp.get("server_cpu_us_per_op")).isPositive();
    assertThat(perOp.get("server_cs_per_op")).as("a task is a round trip: the backend sleeps on its socket")
        .isGreaterThanOrEqualTo(1.0);
  }

  /**
   * A second of warm-up before the 1,500 measured updates: the counters' first reading is taken
   * when the warm-up ends (the manifest's window says when), their divisor is the measured tasks
   * alone, and {@code --profile} samples the server's tree over the same window (where perf is
   * installed and allowed; elsewhere the step says why it was not profiled and the run completes).
   */
  private void theWindowLeavesOutTheWarmUpAndIsProfiled(EmbeddedServer server) throws Exception {
    Path out = tmp.resolve("warmup");
    RunResult result = Loadgen.run(TestServers.sharedConfig(out)
        .target(new LoadgenConfig.Embedded(server.major(), Map.of(), null)).workload("sysbench")
        .steps(List.of("update-index")).tables(2).tableSize(ROWS).mode(LoadgenConfig.Mode.closed(2)).tasks(UPDATES)
        .warmup(java.time.Duration.ofSeconds(1)).profileHz(StepProfiler.DEFAULT_HZ).build(),
        ProgressListener.NONE, server);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    RunManifest run = TestServers.manifest(out);
    dev.benchlake.core.raw.StepResources writes = run.stepResources().get(0);
    dev.benchlake.core.raw.StepWindow window = run.stepWindows().get(0);
    assertThat(run.summary().attempts() - UPDATES).as("the warm-up ran tasks").isGreaterThan(10);
    assertThat(writes.window()).isEqualTo(dev.benchlake.core.raw.StepResources.MEASURED);
    assertThat(writes.includesWarmup()).isFalse();
    assertThat(writes.tasks()).as("the measured tasks alone").isEqualTo(UPDATES);
    assertThat(writes.fromEpochNs()).as("the first reading when the warm-up ended, %s", window)
        .isBetween(window.measuredFromEpochNs(), window.measuredFromEpochNs() + 1_000_000_000L);
    assertThat(writes.toEpochNs()).isGreaterThan(writes.fromEpochNs());
    assertThat(writes.counter("server_cpu_user_ns")).as("%s", writes.notMeasured()).isNotNull();
    dev.benchlake.core.raw.StepProfile profile = writes.profile();
    assertThat(profile).isNotNull();
    if (profile.notProfiled() != null) {
      assertThat(profile.notProfiled()).as("only where perf is missing or refused")
          .containsAnyOf("perf not found", "perf_event_paranoid", "perf refused");
      return;
    }
    assertThat(out.resolve(profile.data())).isNotEmptyFile();
    assertThat(out.resolve(profile.summary())).isNotEmptyFile();
    assertThat(profile.samples()).isPositive();
    assertThat(profile.top()).as("the server's own code: %s", profile.top())
        .anyMatch(s -> s.dso().contains("postgres") || s.dso().contains("kernel"));
  }

  @Test
  void onPostgres14CheckpointsComeFromPgStatBgwriterAndCheckpointBetweenStepsCountsOne(@TempDir Path pgDir)
      throws Exception {
    LoadgenConfig config = LoadgenConfig.builder().target(new LoadgenConfig.Embedded(14, NO_AUTOVACUUM, pgDir))
        .outDir(tmp.resolve("pg14")).randomSeed(7L).environment(Map.of()).workload("sysbench").steps(STEPS)
        .tables(1).tableSize(500).mode(LoadgenConfig.Mode.closed(1)).tasks(200L)
        .betweenSteps(BetweenSteps.CHECKPOINT).build();
    RunResult result = Loadgen.run(config, ProgressListener.NONE);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    List<StepHealth> steps = TestServers.manifest(tmp.resolve("pg14")).stepHealth();
    assertThat(steps.get(0).healthAfter().nDeadTup()).as("seen through the stats collector").isEqualTo(200);
    assertThat(steps.get(0).maintenanceAfter()).isEqualTo("checkpoint");
    assertThat(steps.get(1).healthBefore().checkpoints() - steps.get(0).healthAfter().checkpoints()).isEqualTo(1);
    assertThat(steps.get(1).healthBefore().buffersWritten()).isGreaterThan(steps.get(0).healthAfter().buffersWritten());
  }
}
