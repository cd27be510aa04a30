package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.warehouse.spark.SparkSessions;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A password given through each route benchlake supports (PGPASSWORD, the file PGPASSFILE names,
 * ~/.pgpass under $HOME), to a PostgreSQL that demands it (scram-sha-256), through the whole
 * chain as a user runs it with {@code bin/benchlake} and debug logging: loadgen, then ingest and
 * compare (one {@code batch}). The password then appears nowhere: not in any command's stdout or
 * stderr (where every log goes), not in any file under the working folder, the run directories, the warehouse or the
 * reports (searched byte for byte), and not in any value of any warehouse table (read back with
 * Spark, since Parquet compresses what it stores).
 */
@org.junit.jupiter.api.Tag("integration")
class SecretsIT {
  private static final String USER = "bl_secret";
  private static final String PASSWORD = "Pw-9c1e7d44-secret-route";
  private static final String DB = "bl_secret_db";

  @TempDir
  Path dir;

  private final List<String> outputs = new ArrayList<>();

  private CommandRun benchlake(Map<String, String> env, String... args) throws Exception {
    Map<String, String> all = new HashMap<>(env);
    all.put("BENCHLAKE_LOG_LEVEL", "debug");
    CommandRun r = CommandRun.benchlake(SecretsIT.class, dir.resolve("work"), all, args);
    outputs.add(r.both());
    assertThat(r.exitCode()).as(String.join(" ", args) + "\n" + r.stderr()).isZero();
    return r;
  }

  private static void requirePassword(EmbeddedServer server) throws Exception {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(), "");
        Statement st = c.createStatement()) {
      st.execute("create role " + USER + " login password '" + PASSWORD + "'");
      st.execute("create database " + DB + " owner " + USER);
      try (ResultSet rs = st.executeQuery("show hba_file")) {
        rs.next();
        Path hba = Path.of(rs.getString(1));
        Files.writeString(hba, "host all " + USER + " 127.0.0.1/32 scram-sha-256\nhost all " + USER
            + " ::1/128 scram-sha-256\n" + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      }
      st.execute("select pg_reload_conf()");
    }
  }

  private static Path privateFile(Path file, String content) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  @Test
  void aPasswordFromEveryRouteAppearsInNoOutputFileOrTable() throws Exception {
    Files.createDirectories(dir.resolve("work"));
    Path warehouse = dir.resolve("warehouse");
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 10, dir))) {
      requirePassword(server);
      String url = "jdbc:postgresql://localhost:" + server.port() + "/" + DB;
      String line = "localhost:" + server.port() + ":" + DB + ":" + USER + ":" + PASSWORD + "\n";
      Map<String, Map<String, String>> routes = Map.of(
          "pgpassword", Map.of("PGPASSWORD", PASSWORD),
          "pgpassfile", Map.of("PGPASSFILE", privateFile(dir.resolve("secrets/pgpass"), line).toString()),
          "home", Map.of("HOME", privateFile(dir.resolve("home/.pgpass"), line).getParent().toString()));
      List<String> runDirs = new ArrayList<>();
      for (Map.Entry<String, Map<String, String>> route : routes.entrySet()) {
        Path out = dir.resolve("runs").resolve(route.getKey());
        benchlake(route.getValue(), "loadgen", "--jdbc-url", url, "--user", USER, "--workload", "point-select",
            "--table-size", "100", "--tasks", "40", "--clients", "2", "--label", "route=" + route.getKey(),
            "--out", out.toString());
        runDirs.add(out.toString());
      }
      // Ingest and compare in one batch (one JVM, one Spark start): they need no environment of their own.
      Path commands = Files.writeString(dir.resolve("ingest-compare.txt"), String.join(" ", "ingest", "--warehouse",
          warehouse.toString(), "--master", "local[2]", String.join(" ", runDirs)) + "\n"
          + String.join(" ", "compare", "--warehouse", warehouse.toString(), "--baseline", "route=pgpassword",
          "--candidate", "route!=pgpassword", "--out", dir.resolve("reports").toString()) + "\n");
      String both = benchlake(Map.of(), "batch", commands.toString()).both();
      assertThat(both).contains("batch: line 1: ingest", "batch: line 2: compare");
    }

    assertThat(outputs).hasSize(4).allSatisfy(o -> assertThat(o).doesNotContain(PASSWORD));
    assertThat(outputs.get(0)).contains("complete");
    byte[] secret = PASSWORD.getBytes(StandardCharsets.UTF_8);
    List<Path> searched = new ArrayList<>();
    for (String where : List.of("work", "runs", "warehouse", "reports")) {
      try (Stream<Path> files = Files.walk(dir.resolve(where))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertThat(indexOf(Files.readAllBytes(f), secret)).as(f.toString()).isNegative();
          searched.add(f);
        }
      }
    }
    assertThat(searched).as("manifests, tasks.csv, Delta logs and Parquet files, reports")
        .anyMatch(f -> f.endsWith("manifest.json")).anyMatch(f -> f.toString().endsWith(".parquet"))
        .anyMatch(f -> f.endsWith("report.md"));

    SparkSession spark = SparkSessions.getOrCreate("secrets-it", "local[2]", Map.of());
    try {
      for (String table : List.of("runs", "tasks", "step_metrics", "rejects")) {
        if (!Files.exists(warehouse.resolve(table)) && !table.equals("runs") && !table.equals("tasks")) {
          continue; // loadgen runs have no step metrics, and these have no rejects: never written
        }
        List<String> rows = spark.read().format("delta").load(warehouse.resolve(table).toString()).toJSON().collectAsList();
        assertThat(rows).as(table).noneMatch(r -> r.contains(PASSWORD));
        if (table.equals("runs")) {
          assertThat(rows).hasSize(3);
        }
      }
    } finally {
      spark.stop();
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
