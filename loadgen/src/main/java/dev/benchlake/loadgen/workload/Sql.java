package dev.benchlake.loadgen.workload;

import dev.benchlake.core.cli.BadInputException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Small JDBC helpers shared by the workloads. */
final class Sql {
  private Sql() {}

  static void execute(Connection connection, String... statements) throws SQLException {
    try (Statement st = connection.createStatement()) {
      for (String sql : statements) {
        st.execute(sql);
      }
    }
  }

  /** Runs a query and reads every row, as a client that uses the result would. */
  static void consume(PreparedStatement statement) throws SQLException {
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        // Rows are already decoded by the driver; reading them is what a real client pays.
      }
    }
  }

  static long count(Connection connection, String table) throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("select count(*) from " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** @throws BadInputException when {@code table} does not exist or has fewer than {@code minRows} rows */
  static void requireTable(Connection connection, String table, long minRows) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement("select to_regclass(?) is not null")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          throw new BadInputException("--skip-load: table " + table + " does not exist; run once without --skip-load");
        }
      }
    }
    long rows = count(connection, table);
    if (rows < minRows) {
      throw new BadInputException("--skip-load: table " + table + " has " + rows + " rows, expected at least " + minRows);
    }
  }

  static void closeQuietly(AutoCloseable... closeables) {
    for (AutoCloseable c : closeables) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          // The connection may already be gone; nothing to do.
        }
      }
    }
  }
}
