package dev.benchlake.loadgen.db;

import dev.benchlake.core.raw.ResourceMetric.Counter;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * PostgreSQL's own resource counters around a step, on a connection of its own: WAL
 * ({@code pg_stat_wal}, 14+), blocks, temp bytes and transactions of the run's database
 * ({@code pg_stat_database}), and I/O bytes ({@code pg_stat_io}, 16+). It only reads statistics
 * views: nothing of the URL or the settings is read or written.
 *
 * <p><b>Seeing the step's own work.</b> A backend flushes its counters at most once a second
 * (15+) or every 500 ms to the collector (up to 14), and always when it exits: the reading after a
 * step first waits until the step's connections have left, and up to 14 until the collector's
 * file was written after that, as {@link TableHealthProbe} does; then it clears its statistics
 * snapshot. The counters are the database's or the cluster's: the snapshots' own queries (a few
 * transactions a step) and anything else on the server count too.
 */
public final class ResourceStatsProbe implements AutoCloseable {
  private final Connection connection;
  private final int major;
  private final String applicationName;
  /** Up to 14: the instant after which the last after-step reading's stats file was written (else null). */
  private Instant statsFileAfter;

  /**
   * @param applicationName the step's connections' application name, to wait for them to leave;
   *     this probe's own connection is renamed so that no wait (its own, the table health probe's)
   *     waits for it
   */
  public ResourceStatsProbe(Connection connection, int major, String applicationName) throws SQLException {
    this.connection = connection;
    this.major = major;
    this.applicationName = applicationName;
    try (Statement st = connection.createStatement()) {
      st.execute("set application_name = 'benchlake-loadgen-stats'");
    }
  }

  /**
   * The counters at one moment, and the ones that could not be read with why.
   *
   * @param takenAt the server's clock when they were read
   */
  public record Snapshot(Instant takenAt, Map<String, Long> counters, Map<String, String> notMeasured) {}

  /**
   * Reads the counters; after a step ({@code since} = the server's clock before it), once its
   * connections have left and the statistics hold their last counters.
   */
  public Snapshot take(Instant since) throws SQLException {
    if (since != null) {
      statsFileAfter = null; // a reading that fails below leaves no stale instant for the next probe
      TableHealthProbe.waitForConnectionsToLeave(connection, applicationName, since);
      if (major <= 14) {
        statsFileAfter = now();
        TableHealthProbe.awaitStatsFileWrittenAfter(connection, statsFileAfter);
      }
    }
    Map<String, Long> counters = new LinkedHashMap<>();
    Map<String, String> notMeasured = new TreeMap<>();
    try (Statement st = connection.createStatement()) {
      st.execute("select pg_stat_clear_snapshot()");
    }
    if (major >= 14) {
      read("select wal_records, wal_fpi, wal_bytes from pg_stat_wal", counters, Counter.WAL_RECORDS, Counter.WAL_FPI,
          Counter.WAL_BYTES);
    } else {
      for (String c : new String[] {Counter.WAL_RECORDS, Counter.WAL_FPI, Counter.WAL_BYTES}) {
        notMeasured.put(c, "pg_stat_wal needs PostgreSQL 14; this is " + major);
      }
    }
    read("select blks_hit, blks_read, temp_bytes, xact_commit, xact_rollback from pg_stat_database"
        + " where datname = current_database()", counters, Counter.BLKS_HIT, Counter.BLKS_READ, Counter.TEMP_BYTES,
        Counter.XACT_COMMIT, Counter.XACT_ROLLBACK);
    if (major >= 18) {
      read("select coalesce(sum(read_bytes), 0), coalesce(sum(write_bytes), 0) from pg_stat_io", counters,
          Counter.IO_READ_BYTES, Counter.IO_WRITE_BYTES);
    } else if (major >= 16) {
      read("select coalesce(sum(reads * op_bytes), 0), coalesce(sum(writes * op_bytes), 0) from pg_stat_io", counters,
          Counter.IO_READ_BYTES, Counter.IO_WRITE_BYTES);
    } else {
      notMeasured.put(Counter.IO_READ_BYTES, "pg_stat_io needs PostgreSQL 16; this is " + major);
      notMeasured.put(Counter.IO_WRITE_BYTES, "pg_stat_io needs PostgreSQL 16; this is " + major);
    }
    return new Snapshot(now(), counters, notMeasured);
  }

  private void read(String sql, Map<String, Long> into, String... names) throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      if (!rs.next()) {
        throw new SQLException("no row from: " + sql);
      }
      for (int i = 0; i < names.length; i++) {
        BigDecimal value = rs.getBigDecimal(i + 1);
        if (value != null) {
          into.put(names[i], value.longValue());
        }
      }
    }
  }

  private Instant now() throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("select clock_timestamp()")) {
      rs.next();
      return rs.getObject(1, OffsetDateTime.class).toInstant();
    }
  }

  /**
   * Up to PostgreSQL 14, the server's clock once the last step's connections had left, which the
   * stats file this probe then read was written after; null otherwise. The table health probe
   * after it waits for a file written after this instant rather than after its own clock, which
   * would cost the collector's next file, up to 500 ms a step.
   */
  public Instant statsFileAfter() {
    return statsFileAfter;
  }

  /** The server process of this probe's connection ({@code pg_backend_pid()}). */
  public long backendPid() throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("select pg_backend_pid()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
