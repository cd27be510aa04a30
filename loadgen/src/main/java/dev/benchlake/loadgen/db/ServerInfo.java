package dev.benchlake.loadgen.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the manifest records about the server: {@code select version()}, the major version and
 * every setting whose source is not {@code default} (with its unit, as {@code current_setting}
 * shows it, e.g. {@code 128MB}).
 */
public record ServerInfo(String version, int major, SortedMap<String, String> nonDefaultSettings) {

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
      return new ServerInfo(version, versionNum / 10000, settings);
    }
  }
}
