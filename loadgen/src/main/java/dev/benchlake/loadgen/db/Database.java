package dev.benchlake.loadgen.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.benchlake.core.cli.BadInputException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.postgresql.Driver;
import org.postgresql.PGProperty;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Opens connections to a {@link JdbcTarget} with timeouts on everything, so that no JDBC call can
 * hang: the TCP connect and the login ({@code connectTimeout}, {@code loginTimeout}), every read
 * ({@code socketTimeout}: a query that runs longer fails with 08006 and its connection is
 * replaced) and the cancel request.
 */
public final class Database {
  private static final Driver DRIVER = new Driver();
  /** The start of every loadgen connection's application_name; the run id follows it. */
  private static final String APPLICATION_NAME = "benchlake-loadgen";
  /** PostgreSQL keeps NAMEDATALEN - 1 bytes of an application_name and turns non-ASCII into '?'. */
  private static final int MAX_APPLICATION_NAME = 63;

  private final JdbcTarget target;
  private final String applicationName;
  private final Properties properties;

  /**
   * @param connectTimeout how long connecting and logging in may take
   * @param queryTimeout how long any one read from the server may take
   * @param runId the run whose connections these are: their application_name names it
   */
  public Database(JdbcTarget target, Duration connectTimeout, Duration queryTimeout, String runId) {
    this.target = target;
    this.applicationName = applicationName(runId);
    Properties extra = new Properties();
    PGProperty.CONNECT_TIMEOUT.set(extra, seconds(connectTimeout));
    PGProperty.LOGIN_TIMEOUT.set(extra, seconds(connectTimeout));
    PGProperty.SOCKET_TIMEOUT.set(extra, seconds(queryTimeout));
    PGProperty.CANCEL_SIGNAL_TIMEOUT.set(extra, seconds(connectTimeout));
    PGProperty.TCP_KEEP_ALIVE.set(extra, true);
    PGProperty.APPLICATION_NAME.set(extra, applicationName);
    this.properties = target.connectionProperties(extra);
  }

  /**
   * {@code benchlake-loadgen <run id>}: one name per run, so that the table health probe waits
   * for its own run's connections only (with one name for all, a run beside another on the same
   * server waited its full settle time-out at every snapshot), and so that pg_stat_activity shows
   * which run a connection belongs to. Kept to what the server stores unchanged (printable ASCII,
   * at most 63 bytes), since the probe matches the name exactly.
   */
  public static String applicationName(String runId) {
    StringBuilder name = new StringBuilder(APPLICATION_NAME).append(' ');
    for (int i = 0; i < runId.length() && name.length() < MAX_APPLICATION_NAME; i++) {
      char c = runId.charAt(i);
      name.append(c > ' ' && c < 0x7f ? c : '_');
    }
    return name.toString();
  }

  /** The application_name of this database's connections. */
  public String applicationName() {
    return applicationName;
  }

  private static int seconds(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (d.toMillis() + 999) / 1000));
  }

  public JdbcTarget target() {
    return target;
  }

  /** A new connection (autocommit on). */
  public Connection connect() throws SQLException {
    Connection c = DRIVER.connect(target.safeUrl(), properties);
    if (c == null) {
      throw new SQLException("not a PostgreSQL URL: " + target.safeUrl(), "08001");
    }
    return c;
  }

  /**
   * The first connection of a run: a failure here is the user's to fix (wrong URL, server down,
   * wrong password, missing database), so it becomes one clear line.
   *
   * @throws BadInputException with the driver's reason and SQLSTATE, password scrubbed
   */
  public Connection connectForSetup() {
    try {
      return connect();
    } catch (SQLException e) {
      String hint = switch (e.getSQLState() == null ? "" : e.getSQLState()) {
        case "28P01", "28000", "08004" -> target.hasPassword()
            ? " (check the password in PGPASSWORD, PGPASSFILE or ~/.pgpass)"
            : " (no password found: set PGPASSWORD or add a line to ~/.pgpass)";
        case "3D000" -> " (create the database first)";
        default -> "";
      };
      throw new BadInputException("cannot connect to " + target + ": " + target.scrub(SqlErrors.oneLine(e.getMessage()))
          + (e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")") + hint, e);
    }
  }

  /**
   * A pool of exactly {@code size} connections (burst mode): a task that cannot get one within
   * {@code poolTimeout} fails. The pool never sees the password (it gets a configured
   * DataSource), so it cannot log it.
   */
  public HikariDataSource pool(int size, Duration poolTimeout) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(target.safeUrl());
    for (String name : properties.stringPropertyNames()) {
      try {
        ds.setProperty(name, properties.getProperty(name));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
    HikariConfig config = new HikariConfig();
    config.setDataSource(ds);
    config.setPoolName("loadgen-burst");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setConnectionTimeout(poolTimeout.toMillis());
    config.setValidationTimeout(Math.min(5_000, Math.max(250, poolTimeout.toMillis())));
    config.setInitializationFailTimeout(-1);
    config.setMaxLifetime(0);
    config.setIdleTimeout(0);
    return new HikariDataSource(config);
  }
}
