package dev.benchlake.loadgen.db;

import dev.benchlake.core.raw.RunManifest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the manifest records about the server: {@code select version()}, the major version,
 * every setting whose source is not {@code default} (with its unit, as {@code current_setting}
 * shows it, e.g. {@code 128MB}), which server start this is, and how it was built.
 *
 * @param build {@code pg_config}'s {@code CONFIGURE} (the build's configure options), or null when
 *     the user may not read it
 */
public record ServerInfo(String version, int major, SortedMap<String, String> nonDefaultSettings,
    RunManifest.ServerStart serverStart, String build) {

  public ServerInfo {
    nonDefaultSettings = Collections.unmodifiableSortedMap(new TreeMap<>(nonDefaultSettings));
  }

  public static ServerInfo query(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement()) {
      String version;
      int versionNum;
      try (ResultSet rs = st.executeQuery("select version(), current_setting('server_version_num')::int")) {
        rs.next();
        version = rs.getString(1);
        versionNum = rs.getInt(2);
      }
      SortedMap<String, String> settings = new TreeMap<>();
      try (ResultSet rs = st.executeQuery(
          "select name, current_setting(name) from pg_settings where source <> 'default' order by name")) {
        while (rs.next()) {
          settings.put(rs.getString(1), rs.getString(2));
        }
      }
      return new ServerInfo(version, versionNum / 10000, settings, serverStart(st), build(connection));
    }
  }

  /**
   * The build's configure options. The {@code pg_config} view is superuser-only since PostgreSQL 10,
   * so a plain user's read fails (42501), and a server without the view (42P01: a PostgreSQL-compatible
   * one) has nothing to say: both are "not recorded", not a failed run. A connection in a transaction
   * is rolled back to before the read.
   */
  static String build(Connection connection) throws SQLException {
    java.sql.Savepoint before = connection.getAutoCommit() ? null : connection.setSavepoint();
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("select setting from pg_config where name = 'CONFIGURE'")) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      if (!"42501".equals(e.getSQLState()) && !"42P01".equals(e.getSQLState())) {
        throw e;
      }
      if (before != null) {
        connection.rollback(before);
      }
      return null;
    }
  }

  /**
   * The postmaster's start time and data directory. The data directory comes from
   * {@code pg_settings}, which leaves out the rows a user may not read (it is superuser-only, or
   * {@code pg_read_all_settings}): there {@code current_setting('data_directory')} would fail,
   * the subquery gives null.
   */
  static RunManifest.ServerStart serverStart(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery("select pg_postmaster_start_time(), "
        + "(select setting from pg_settings where name = 'data_directory')")) {
      rs.next();
      OffsetDateTime started = rs.getObject(1, OffsetDateTime.class);
      return new RunManifest.ServerStart(started.toInstant().toString(), rs.getString(2));
    }
  }
}
