package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that wants a password: loadgen finds it in PGPASSWORD or a password file, and it never
 * appears in anything loadgen writes (files, stdout, stderr, logs), not even when it is wrong.
 */
@org.junit.jupiter.api.Tag("integration")
class PasswordTest {
  static final String USER = "lg_secret";
  static final String PASSWORD = "Pw-7f3c9e2a-never-print-me";

  @TempDir
  Path tmp;

  private static EmbeddedServer server;
  private static String url;

  @BeforeAll
  static void requirePasswordFor() throws Exception {
    server = TestServers.shared();
    TestServers.sql(server, "drop database if exists lg_secret_db", "drop role if exists " + USER,
        "create role " + USER + " login password '" + PASSWORD + "'",
        "create database lg_secret_db owner " + USER);
    try (Connection c = TestServers.connect(server); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("show hba_file")) {
      rs.next();
      Path hba = Path.of(rs.getString(1));
      String current = Files.readString(hba, StandardCharsets.UTF_8);
      if (!current.contains(USER)) {
        Files.writeString(hba, "host all " + USER + " 127.0.0.1/32 scram-sha-256\nhost all " + USER
            + " ::1/128 scram-sha-256\n" + current, StandardCharsets.UTF_8);
      }
      st.execute("select pg_reload_conf()");
    }
    url = "jdbc:postgresql://localhost:" + server.port() + "/lg_secret_db";
  }

  private record Child(int exitCode, String output) {}

  private Child loadgen(Map<String, String> env, Path out) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), LoadgenMain.class.getName(),
        "--jdbc-url", url, "--user", USER, "--workload", "select-update", "--scale", "0.001",
        "--tasks", "50", "--clients", "2", "--out", out.toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().remove("PGPASSWORD");
    pb.environment().remove("PGPASSFILE");
    pb.environment().put("BENCHLAKE_LOG_LEVEL", "debug");
    pb.environment().putAll(env);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Child(p.exitValue(), output);
  }

  private static void assertNoFileMentions(Path dir, String secret) throws Exception {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(f, StandardCharsets.UTF_8)).as(f.toString()).doesNotContain(secret);
      }
    }
  }

  @Test
  void pgpasswordLogsInAndNeverLeaks() throws Exception {
    Path out = tmp.resolve("ok");
    Child child = loadgen(Map.of("PGPASSWORD", PASSWORD), out);
    assertThat(child.exitCode()).as(child.output()).isZero();
    assertThat(child.output()).doesNotContain(PASSWORD).contains("complete");
    assertThat(TestServers.manifest(out).status()).isEqualTo(RunStatus.COMPLETE);
    assertThat(TestServers.manifest(out).target().jdbcUrl()).isEqualTo(url);
    assertNoFileMentions(out, PASSWORD);
  }

  @Test
  void aWrongPasswordIsOneClearLineAndExit2() throws Exception {
    String wrong = "Wrong-" + PASSWORD;
    Path out = tmp.resolve("wrong");
    Child child = loadgen(Map.of("PGPASSWORD", wrong), out);
    assertThat(child.exitCode()).isEqualTo(2);
    assertThat(child.output()).contains("password authentication failed for user \"" + USER + "\"")
        .contains("SQLSTATE 28P01").doesNotContain(wrong).doesNotContain(PASSWORD);
    assertThat(out).doesNotExist();
  }

  @Test
  void noPasswordAnywhereSaysWhereToPutIt() throws Exception {
    Path out = tmp.resolve("none");
    Child child = loadgen(Map.of("PGPASSFILE", tmp.resolve("absent").toString()), out);
    assertThat(child.exitCode()).isEqualTo(2);
    assertThat(child.output()).contains("no password found: set PGPASSWORD or add a line to ~/.pgpass");
    assertThat(out).doesNotExist();
  }

  @Test
  void aPasswordFileServesTheApiAndErrorsAreScrubbed() throws Exception {
    Path pgpass = tmp.resolve("pgpass");
    Files.writeString(pgpass, "# host:port:db:user:password\nother:*:*:*:nope\nlocalhost:" + server.port() + ":*:"
        + USER + ":" + PASSWORD + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
    Path out = tmp.resolve("api");
    RunResult result = Loadgen.run(LoadgenConfig.builder().target(new LoadgenConfig.External(url, USER))
        .environment(Map.of("PGPASSFILE", pgpass.toString())).workload("point-select").tableSize(100)
        .tasks(20L).outDir(out).build(), ProgressListener.NONE);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    assertNoFileMentions(out, PASSWORD);
  }
}
