package dev.benchlake.loadgen.db;

import dev.benchlake.core.cli.BadInputException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The settings of an embedded server: which go on the server's command line (durability back on,
 * connections sized to the load; values loadgen checks itself, so that a start never fails on
 * them), and the rest of the user's {@code --pg-setting}s, applied through {@code ALTER SYSTEM} so
 * that the server itself validates them.
 */
public final class EmbeddedSettings {
  /** PostgreSQL's own default; we only raise it when the load needs more. */
  static final int DEFAULT_MAX_CONNECTIONS = 100;
  /** Connections beyond the clients: loadgen's own setup connection, psql, superuser_reserved_connections. */
  static final int SPARE_CONNECTIONS = 10;

  private static final Pattern SETTING_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
  private static final Set<String> RESERVED = Set.of("port", "data_directory", "config_file", "hba_file", "ident_file");
  /** Settings passed on the command line: loadgen checks their values itself, so a start never fails on them. */
  private static final Map<String, Pattern> COMMAND_LINE = Map.of(
      "fsync", Pattern.compile("(?i)on|off|true|false|yes|no|1|0"),
      "synchronous_commit", Pattern.compile("(?i)on|off|local|remote_write|remote_apply"),
      "max_connections", Pattern.compile("[1-9][0-9]{0,5}"));

  private EmbeddedSettings() {}

  /** The command-line settings: durability back on and connections sized to the load, unless the user set them. */
  static Map<String, String> commandLine(EmbeddedServer.Options options) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fsync", "on");
    settings.put("synchronous_commit", "on");
    settings.put("max_connections",
        Integer.toString(Math.max(DEFAULT_MAX_CONNECTIONS, options.connectionsNeeded() + SPARE_CONNECTIONS)));
    options.userSettings().forEach((name, value) -> {
      String key = name.toLowerCase(Locale.ROOT);
      if (COMMAND_LINE.containsKey(key)) {
        settings.put(key, value);
      }
    });
    return settings;
  }

  /** The user's settings that do not go on the command line: for {@link #alterSystem}. */
  static Map<String, String> viaAlterSystem(Map<String, String> userSettings) {
    Map<String, String> rest = new LinkedHashMap<>();
    userSettings.forEach((k, v) -> {
      if (!COMMAND_LINE.containsKey(k.toLowerCase(Locale.ROOT))) {
        rest.put(k, v);
      }
    });
    return rest;
  }

  /** @throws BadInputException for a setting loadgen cannot pass to the embedded server */
  public static void validate(String name, String value) {
    String key = name.toLowerCase(Locale.ROOT);
    if (!SETTING_NAME.matcher(name).matches()) {
      throw new BadInputException("--pg-setting: '" + name + "' is not a PostgreSQL setting name");
    }
    if (RESERVED.contains(key)) {
      throw new BadInputException("--pg-setting: " + name + " is managed by loadgen for the embedded server");
    }
    Pattern allowed = COMMAND_LINE.get(key);
    if (allowed != null && !allowed.matcher(value).matches()) {
      throw new BadInputException("--pg-setting " + name + "=" + value + ": not a valid value for " + key);
    }
  }

  /**
   * Applies the user's settings with ALTER SYSTEM and reloads.
   *
   * @return whether one of them needs a restart
   * @throws BadInputException with the server's reason for a setting it refuses
   */
  static boolean alterSystem(Connection c, Map<String, String> userSettings) {
    try (Statement st = c.createStatement()) {
      for (Map.Entry<String, String> e : userSettings.entrySet()) {
        try {
          st.execute("ALTER SYSTEM SET " + e.getKey() + " = '" + e.getValue().replace("'", "''") + "'");
        } catch (SQLException refused) {
          throw new BadInputException("--pg-setting " + e.getKey() + "=" + e.getValue() + ": "
              + SqlErrors.message(refused), refused);
        }
      }
      st.execute("SELECT pg_reload_conf()");
      if (anyNeedsRestart(st, userSettings)) {
        // Decided by the setting's context, not by pending_restart: that flag appears only once
        // the asynchronous reload has been processed, which a loaded machine may delay past the
        // wait below (a postgresql.conf value such as initdb's shared_buffers then looked applied).
        return true;
      }
      // The reload is asynchronous: the postmaster re-reads the files after the signal.
      for (int i = 0; i < 50; i++) {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_settings WHERE pending_restart")) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return true;
          }
        }
        if (allApplied(st, userSettings)) {
          return false;
        }
        Thread.sleep(20);
      }
      return true;
    } catch (SQLException e) {
      throw new IllegalStateException("applying --pg-setting to the embedded server failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** Whether one of the settings takes effect only at server start (context {@code postmaster}). */
  private static boolean anyNeedsRestart(Statement st, Map<String, String> userSettings) throws SQLException {
    for (String name : userSettings.keySet()) {
      try (ResultSet rs = st.executeQuery("SELECT context FROM pg_settings WHERE name = '"
          + name.toLowerCase(Locale.ROOT).replace("'", "''") + "'")) {
        if (rs.next() && rs.getString(1).equals("postmaster")) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean allApplied(Statement st, Map<String, String> userSettings) throws SQLException {
    for (String name : userSettings.keySet()) {
      try (ResultSet rs = st.executeQuery("SELECT source FROM pg_settings WHERE name = '" + name.toLowerCase(Locale.ROOT)
          .replace("'", "''") + "'")) {
        if (rs.next() && !rs.getString(1).equals("configuration file")) {
          return false;
        }
      }
    }
    return true;
  }
}
