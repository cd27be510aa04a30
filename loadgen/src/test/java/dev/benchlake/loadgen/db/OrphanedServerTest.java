package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.ProcessIdentity;
import dev.benchlake.loadgen.LoadgenMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A loadgen killed with SIGKILL leaves its embedded server running; the next start stops and removes it. */
@org.junit.jupiter.api.Tag("integration")
class OrphanedServerTest {
  @TempDir
  Path tmp;

  /** A loadgen process that starts an embedded server under {@code tmp} (looking for orphans there first), then is killed; its pid. */
  private long startAndKillALoadgen() throws Exception {
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LoadgenMain.class.getName(), "--serve", "--pg-dir", tmp.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("port=")) {
        // wait until the server runs
      }
      assertThat(line).startsWith("port=");
    }
    child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    return child.pid();
  }

  /**
   * The killed loadgen's cluster records it as its owner, so that it is an orphan as soon as the
   * owner is gone. A cluster of an earlier benchlake records none (its owner file removed here): it
   * is one only once older than a minute and unlocked.
   */
  @Test
  void theNextStartStopsAnOrphanedServer() throws Exception {
    long owner = startAndKillALoadgen();

    Path cluster;
    try (Stream<Path> dirs = Files.list(tmp)) {
      cluster = dirs.filter(d -> d.getFileName().toString().startsWith("benchlake-pg17-")).findFirst().orElseThrow();
    }
    long pid = Long.parseLong(Files.readAllLines(cluster.resolve("data/postmaster.pid"), StandardCharsets.UTF_8).get(0));
    assertThat(ProcessHandle.of(pid)).as("the server outlives its JVM").isPresent();
    assertThat(ServerOwner.read(cluster)).as("its owner, recorded").map(o -> o.owner().pid()).hasValue(owner);
    assertThat(OrphanReaper.find(tmp)).extracting(OrphanReaper.Orphan::dir).as("an orphan at once").containsExactly(cluster);

    Files.delete(cluster.resolve(ServerOwner.FILE));
    OrphanReaper.stopOrphans(tmp);
    assertThat(cluster).as("without an owner: too young to be called an orphan").exists();

    Files.setLastModifiedTime(cluster, FileTime.from(Instant.now().minusSeconds(120)));
    OrphanReaper.stopOrphans(tmp);
    assertThat(cluster).doesNotExist();
    // Stopped: gone, or a zombie its new parent (init) has not reaped yet.
    assertThat(dev.benchlake.core.ProcessIdentity.of(pid)).as("the server runs no more").isEmpty();
    // What is left is the initdb template of the first start (InitdbTemplate): no server ever ran on it.
    assertThat(List.of(tmp.toFile().list())).allMatch(name -> name.startsWith("benchlake-initdb-"));
  }

  /**
   * A server that another server of its JVM started beside is still its JVM's: the second start's
   * look for orphans must not drop the first's lock (on Linux, closing any channel to the lock file
   * did), or the next loadgen process takes the first for an orphan and stops it (seen in CI: "the
   * database system is shutting down" in the middle of a test on the shared server).
   */
  @Test
  void aServerBesideAnotherOfItsJvmIsNotTakenForAnOrphan() throws Exception {
    try (EmbeddedServer first = EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 10, tmp))) {
      Path cluster;
      try (Stream<Path> dirs = Files.list(tmp)) {
        cluster = dirs.filter(d -> d.getFileName().toString().startsWith("benchlake-pg17-")).findFirst().orElseThrow();
      }
      // Old enough to be an orphan, were it one.
      Files.setLastModifiedTime(cluster, FileTime.from(Instant.now().minusSeconds(120)));
      EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 10, tmp)).close();

      startAndKillALoadgen();

      try (Connection c = DriverManager.getConnection(first.jdbcUrl(), first.user(), "");
          Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select 1")) {
        assertThat(rs.next()).as("the first server still serves").isTrue();
      }
      assertThat(cluster).exists();
      // The killed loadgen's server is an orphan: stop it here (the first is this JVM's, and stays).
      try (Stream<Path> dirs = Files.list(tmp)) {
        for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("benchlake-pg17-")).toList()) {
          Files.setLastModifiedTime(dir, FileTime.from(Instant.now().minusSeconds(120)));
        }
      }
      OrphanReaper.stopOrphans(tmp);
      assertThat(cluster).exists();
    }
  }
  /**
   * SIGTERM ends {@code loadgen --serve} cleanly (issue 44, 14c): the server stopped and its
   * cluster removed, one line saying so, no stack trace, exit 143 (128 + SIGTERM, as the help says).
   */
  @Test
  void sigtermStopsTheServedServerWithOneLineAndNoStackTrace() throws Exception {
    Path err = tmp.resolve("serve.err");
    Path clusters = Files.createDirectories(tmp.resolve("clusters"));
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LoadgenMain.class.getName(), "--serve", "--pg-dir",
        clusters.toString()).redirectError(err.toFile()).start();
    long pid;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("port=")) {
        // wait until the server runs
      }
      assertThat(line).startsWith("port=");
      Path cluster;
      try (Stream<Path> dirs = Files.list(clusters)) {
        cluster = dirs.filter(d -> d.getFileName().toString().startsWith("benchlake-pg17-")).findFirst().orElseThrow();
      }
      pid = Long.parseLong(Files.readAllLines(cluster.resolve("data/postmaster.pid"), StandardCharsets.UTF_8).get(0));
      child.destroy(); // SIGTERM
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(child.exitValue()).isEqualTo(143);
    List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);
    assertThat(lines).noneMatch(l -> l.contains("\tat ") || l.contains("Exception"));
    assertThat(lines.get(lines.size() - 1)).matches("embedded PostgreSQL 17\\.\\S+ on port \\d+ stopped");
    // pg_ctl's stop returns once the postmaster removed its pid file, a moment before it exits and
    // is reaped: give it that moment (a zombie counts as gone).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ProcessIdentity.of(pid).map(ProcessIdentity::alive).orElse(false) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(ProcessIdentity.of(pid).map(ProcessIdentity::alive).orElse(false)).as("the server stopped").isFalse();
  }
}
