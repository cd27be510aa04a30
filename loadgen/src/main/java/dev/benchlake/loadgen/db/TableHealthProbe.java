package dev.benchlake.loadgen.db;

import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.core.raw.TableHealth;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Reads the table health of a workload's tables ({@link TableHealth}) on a connection of its own,
 * between steps, and runs the maintenance of {@code --between-steps}.
 *
 * <p><b>Seeing the step's own effects.</b> PostgreSQL's cumulative statistics are updated
 * asynchronously: a backend keeps its counters locally and flushes them at the end of a
 * transaction at most once a second (PostgreSQL 15+, shared memory), or sends them to the stats
 * collector at most every 500 ms (up to 14); every backend flushes when it exits. So the snapshot
 * after a step first waits until the step's own connections (this run's application name, which
 * holds its run id, started since the step began; another run's connections on the same server are
 * not waited for) have left the server (at most {@link #SETTLE_TIMEOUT_MS}), then clears its
 * own statistics snapshot ({@code pg_stat_clear_snapshot()}). Up to PostgreSQL 14 a reader is
 * served the collector's last stats file while it is under 500 ms old, and asks for a new one after
 * that, so the probe waits until the file it is served was written after the connections left
 * ({@code pg_stat_get_snapshot_timestamp()}): at once when the collector's last file is older than
 * that (the usual case: nothing asks for one during a step), at most {@link #COLLECTOR_DELAY_MS}
 * otherwise. After {@code --between-steps}' VACUUM or ANALYZE it waits the same way for a file written
 * after the maintenance returned (each sends the collector its table's new counts before it returns);
 * after a CHECKPOINT, which returns before the checkpointer sends its counters, it waits
 * {@link #COLLECTOR_DELAY_MS}. Limits: a backend
 * that does not exit in time (a pool on a slow server) may leave up to its last second of counters
 * out; an autovacuum that is still running when the snapshot is taken counts in the next step;
 * {@code n_live_tup}/{@code n_dead_tup} are the server's estimates.
 */
public final class TableHealthProbe implements AutoCloseable {
  /** Longest wait for the step's connections to leave. */
  static final long SETTLE_TIMEOUT_MS = 5_000;
  /**
   * PostgreSQL ≤ 14: the longest wait for a stats file written after the connections left (a file
   * is served to readers until it is PGSTAT_STAT_INTERVAL, 500 ms, old; plus a margin).
   */
  static final long COLLECTOR_DELAY_MS = 600;

  private final Connection connection;
  private final int major;
  private final List<String> tables;
  private final String applicationName;
  /**
   * The server's clock once the last maintenance had returned, when its counters were sent by then
   * (VACUUM, ANALYZE): a stats file written after it holds them. Null: none since the last snapshot,
   * or a CHECKPOINT.
   */
  private Instant maintainedAt;

  /**
   * @param tables the workload's tables; empty: every user table
   * @param applicationName the application name of the step's connections, to wait for them to leave
   */
  public TableHealthProbe(Connection connection, int major, List<String> tables, String applicationName) {
    this.connection = connection;
    this.major = major;
    this.tables = List.copyOf(tables);
    this.applicationName = applicationName;
  }

  /** One table's counters, as read. */
  public record TableRow(String table, long nLiveTup, long nDeadTup, long autovacuumCount, long autoanalyzeCount,
      Instant lastAutovacuum, Instant lastAutoanalyze) {}

  /** Every table's counters and the checkpointer's, at one moment. */
  public record Snapshot(Instant takenAt, List<TableRow> rows, Long checkpoints, Long buffersWritten) {
    /** Summed over the tables (for counts), the latest of the timestamps. */
    public TableHealth summary() {
      long live = 0;
      long dead = 0;
      long autovacuum = 0;
      long autoanalyze = 0;
      Instant lastVacuum = null;
      Instant lastAnalyze = null;
      for (TableRow r : rows) {
        live += r.nLiveTup();
        dead += r.nDeadTup();
        autovacuum += r.autovacuumCount();
        autoanalyze += r.autoanalyzeCount();
        lastVacuum = latest(lastVacuum, r.lastAutovacuum());
        lastAnalyze = latest(lastAnalyze, r.lastAutoanalyze());
      }
      return new TableHealth(takenAt.toString(), rows.size(), live, dead, autovacuum, autoanalyze, text(lastVacuum),
          text(lastAnalyze), checkpoints, buffersWritten);
    }
  }

  /**
   * The step's record from the snapshots around it: the sums, and how many tables autovacuum and
   * autoanalyze processed in between (a table's count rose; a table missing from either side
   * does not count).
   */
  public static StepHealth step(String step, List<String> taskNames, Snapshot before, Snapshot after) {
    if (after == null) {
      return new StepHealth(step, taskNames, before == null ? null : before.summary(), null, null, null, null);
    }
    Map<String, TableRow> earlier = new TreeMap<>();
    if (before != null) {
      before.rows().forEach(r -> earlier.put(r.table(), r));
    }
    int vacuumed = 0;
    int analyzed = 0;
    for (TableRow r : after.rows()) {
      TableRow b = earlier.get(r.table());
      if (b != null && r.autovacuumCount() > b.autovacuumCount()) {
        vacuumed++;
      }
      if (b != null && r.autoanalyzeCount() > b.autoanalyzeCount()) {
        analyzed++;
      }
    }
    return new StepHealth(step, taskNames, before == null ? null : before.summary(), after.summary(),
        before == null ? null : vacuumed, before == null ? null : analyzed, null);
  }

  /**
   * Waits until the connections of this run's application started at or after {@code since} have
   * left (none when null), and, up to PostgreSQL 14, for the stats collector; then reads.
   *
   * @param settle whether anything ran since the last snapshot (a step, maintenance, the load)
   */
  public Snapshot take(Instant since, boolean settle) throws SQLException {
    return take(since, settle, null);
  }

  /**
   * {@link #take(Instant, boolean)}, where up to 14 a stats file written after {@code leftBy} (a
   * moment the step's connections had already left, e.g. the resource probe's) is fresh enough:
   * null = this probe's own clock once they have left.
   */
  public Snapshot take(Instant since, boolean settle, Instant leftBy) throws SQLException {
    if (since != null) {
      waitForConnectionsToLeave(since);
    }
    if (settle && major <= 14) {
      if (since != null) {
        awaitStatsFileWrittenAfter(leftBy != null ? leftBy : serverNow());
      } else if (maintainedAt != null) {
        // VACUUM and ANALYZE sent their counts before they returned: a file written since holds them.
        awaitStatsFileWrittenAfter(maintainedAt);
      } else {
        // After --between-steps' maintenance: a CHECKPOINT returns before the checkpointer sends
        // its counters, so no instant is known after which a file must hold them.
        sleep(COLLECTOR_DELAY_MS);
      }
    }
    maintainedAt = null;
    try (Statement st = connection.createStatement()) {
      st.execute("select pg_stat_clear_snapshot()");
    }
    List<TableRow> rows = new ArrayList<>();
    Instant takenAt;
    String sql = "select relname::text, n_live_tup, n_dead_tup, autovacuum_count, autoanalyze_count, last_autovacuum,"
        + " last_autoanalyze, clock_timestamp() from pg_stat_user_tables"
        + (tables.isEmpty() ? "" : " where relid = any (select to_regclass(t)::oid from unnest(?::text[]) t)")
        + " order by relname";
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      if (!tables.isEmpty()) {
        Array names = connection.createArrayOf("text", tables.toArray());
        ps.setArray(1, names);
      }
      takenAt = null;
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new TableRow(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
              instant(rs.getObject(6, OffsetDateTime.class)), instant(rs.getObject(7, OffsetDateTime.class))));
          takenAt = instant(rs.getObject(8, OffsetDateTime.class));
        }
      }
    }
    Long[] checkpointer = checkpointer();
    if (takenAt == null) {
      takenAt = serverNow();
    }
    return new Snapshot(takenAt, rows, checkpointer[0], checkpointer[1]);
  }

  /** Checkpoints and the buffers they wrote: pg_stat_checkpointer from 17, pg_stat_bgwriter before. */
  private Long[] checkpointer() throws SQLException {
    String sql = major >= 17
        ? "select num_timed + num_requested, buffers_written from pg_stat_checkpointer"
        : "select checkpoints_timed + checkpoints_req, buffers_checkpoint from pg_stat_bgwriter";
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return new Long[] {rs.getLong(1), rs.getLong(2)};
    }
  }

  private Instant serverNow() throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("select clock_timestamp()")) {
      rs.next();
      return rs.getObject(1, OffsetDateTime.class).toInstant();
    }
  }

  /**
   * Up to PostgreSQL 14: waits (at most {@link #COLLECTOR_DELAY_MS}) until the stats file this
   * connection is served was written at or after {@code instant}, the server's clock once the
   * connections had left: each sent the collector its last counters as it exited, before it left
   * pg_stat_activity, and the collector reads every message sent before a request for a new file
   * ahead of writing it.
   */
  private void awaitStatsFileWrittenAfter(Instant instant) throws SQLException {
    awaitStatsFileWrittenAfter(connection, instant);
  }

  /** {@link #awaitStatsFileWrittenAfter(Instant)} on {@code connection} (shared with {@link ResourceStatsProbe}). */
  static void awaitStatsFileWrittenAfter(Connection connection, Instant instant) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COLLECTOR_DELAY_MS);
    try (Statement clear = connection.createStatement();
        PreparedStatement fresh = connection.prepareStatement(
            "select coalesce(pg_stat_get_snapshot_timestamp() >= ?, false)")) {
      fresh.setObject(1, OffsetDateTime.ofInstant(instant, java.time.ZoneOffset.UTC));
      while (true) {
        clear.execute("select pg_stat_clear_snapshot()");
        try (ResultSet rs = fresh.executeQuery()) {
          rs.next();
          if (rs.getBoolean(1) || System.nanoTime() > deadline) {
            return;
          }
        }
        sleep(10);
      }
    }
  }

  private void waitForConnectionsToLeave(Instant since) throws SQLException {
    waitForConnectionsToLeave(connection, applicationName, since);
  }

  /**
   * Waits (at most {@link #SETTLE_TIMEOUT_MS}) until the connections named {@code applicationName}
   * started at or after {@code since} have left, {@code connection}'s own aside.
   */
  static void waitForConnectionsToLeave(Connection connection, String applicationName, Instant since)
      throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_TIMEOUT_MS);
    try (PreparedStatement ps = connectionsOfThisRun(connection, applicationName, since)) {
      while (connectionsStillThere(ps) > 0 && System.nanoTime() <= deadline) {
        sleep(10);
      }
    }
  }

  /** How many of this run's connections started at or after {@code since} are still on the server (this one aside). */
  long connectionsStillThere(Instant since) throws SQLException {
    try (PreparedStatement ps = connectionsOfThisRun(since)) {
      return connectionsStillThere(ps);
    }
  }

  private PreparedStatement connectionsOfThisRun(Instant since) throws SQLException {
    return connectionsOfThisRun(connection, applicationName, since);
  }

  private static PreparedStatement connectionsOfThisRun(Connection connection, String applicationName, Instant since)
      throws SQLException {
    PreparedStatement ps = connection.prepareStatement("select count(*) from pg_stat_activity where"
        + " application_name = ? and pid <> pg_backend_pid() and backend_start >= ?");
    ps.setString(1, applicationName);
    ps.setObject(2, OffsetDateTime.ofInstant(since, java.time.ZoneOffset.UTC));
    return ps;
  }

  private static long connectionsStillThere(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * Runs {@code --between-steps}' maintenance on the workload's tables (every user table of the
   * database when they are not known).
   */
  public void maintain(BetweenSteps action) throws SQLException {
    if (action == BetweenSteps.NONE) {
      return;
    }
    maintainedAt = null;
    try (Statement st = connection.createStatement()) {
      if (action == BetweenSteps.CHECKPOINT) {
        st.execute("CHECKPOINT");
        return;
      }
      String verb = action == BetweenSteps.ANALYZE ? "ANALYZE" : "VACUUM (ANALYZE)";
      if (tables.isEmpty()) {
        st.execute(verb);
      } else {
        for (String table : tables) {
          st.execute(verb + " " + table);
        }
      }
    }
    // Only a PostgreSQL 14 or older snapshot waits for it (15+ reads shared memory).
    maintainedAt = major <= 14 ? serverNow() : null;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }

  private static Instant latest(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
  }

  private static String text(Instant t) {
    return t == null ? null : t.toString();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
