package dev.benchlake.loadgen;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * One embedded PostgreSQL 17 shared by the loadgen tests of a JVM (starting one costs seconds),
 * and helpers to read run directories.
 */
public final class TestServers {
  private static EmbeddedServer shared;

  private TestServers() {}

  /** The shared server, started on first use and stopped when the test JVM exits. */
  public static synchronized EmbeddedServer shared() {
    if (shared == null) {
      shared = EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 120, null));
      EmbeddedServer server = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "test-server-closer"));
    }
    return shared;
  }

  /** A builder for runs on the shared server (pass the server to {@link Loadgen#run}). */
  public static LoadgenConfig.Builder sharedConfig(Path out) {
    return LoadgenConfig.builder().target(new LoadgenConfig.Embedded(17, Map.of(), null)).outDir(out)
        .randomSeed(42L).environment(Map.of());
  }

  public static Connection connect(EmbeddedServer server) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl(), server.user(), "");
  }

  public static void sql(EmbeddedServer server, String... statements) throws SQLException {
    try (Connection c = connect(server); Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  /** Every line of tasks.csv after the header, parsed (fails the test on a malformed line). */
  public static List<TaskRecord> tasks(Path runDir) throws IOException {
    List<String> lines = Files.readAllLines(RunDirectory.tasks(runDir), StandardCharsets.UTF_8);
    if (!lines.get(0).equals(TaskCsv.HEADER)) {
      throw new AssertionError("header: " + lines.get(0));
    }
    return lines.subList(1, lines.size()).stream().map(TaskCsv::parse).toList();
  }

  public static RunManifest manifest(Path runDir) throws IOException {
    return RunManifest.read(RunDirectory.manifest(runDir));
  }
}
