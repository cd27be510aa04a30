package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real loadgen process killed with SIGKILL mid-run: every line it wrote is complete and valid,
 * the manifest still says running (which ingest reads as interrupted), and a SIGTERM instead
 * leaves an interrupted manifest with every line.
 */
@org.junit.jupiter.api.Tag("integration")
class CrashSafetyTest {
  @TempDir
  Path tmp;

  private final EmbeddedServer server = TestServers.shared();

  private Process startLoadgen(Path out) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), LoadgenMain.class.getName(),
        "--jdbc-url", server.jdbcUrl(), "--user", server.user(),
        "--workload", "point-select", "--table-size", "1000", "--clients", "2", "--duration", "120s",
        "--out", out.toString()));
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile())
        .start();
  }

  private static void awaitLines(Path out, int lines, Process child) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Path tasks = RunDirectory.tasks(out);
    while (System.nanoTime() < deadline && child.isAlive()) {
      if (Files.exists(tasks) && Files.size(tasks) > lines * 40L) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the child wrote too little; its log: "
        + Files.readString(out.resolveSibling("child.log"), StandardCharsets.UTF_8));
  }

  /** Runs a loadgen child until it has written about {@code lines} lines, then signals it and waits for it to end. */
  private Process runAndStop(Path out, int lines, boolean kill) throws Exception {
    Process child = startLoadgen(out);
    try {
      awaitLines(out, lines, child);
      if (kill) {
        child.destroyForcibly();
      } else {
        child.destroy();
      }
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    return child;
  }

  @Test
  void killMinus9LeavesOnlyCompleteValidLinesAndARunningManifest() throws Exception {
    Path out = tmp.resolve("run");
    Process child = runAndStop(out, 2_000, true);
    assertThat(child.exitValue()).as("SIGKILL").isEqualTo(137);

    String text = Files.readString(RunDirectory.tasks(out), StandardCharsets.UTF_8);
    // Lines are written whole, but a SIGKILL may stop a write() at a page boundary: only a cut
    // last line (without its \n) is allowed, as the contract says.
    List<String> lines = text.substring(0, text.lastIndexOf('\n')).lines().toList();
    assertThat(lines.get(0)).isEqualTo(TaskCsv.HEADER);
    assertThat(lines.size()).isGreaterThan(1_000);
    lines.subList(1, lines.size()).forEach(TaskCsv::parse);
    assertThat(TestServers.manifest(out).status()).isEqualTo(RunStatus.RUNNING);
  }

  @Test
  void sigtermFinishesTheRunAsInterrupted() throws Exception {
    Path out = tmp.resolve("run");
    runAndStop(out, 500, false);
    var manifest = TestServers.manifest(out);
    assertThat(manifest.status()).isEqualTo(RunStatus.INTERRUPTED);
    assertThat(manifest.error()).contains("signal");
    assertThat(manifest.summary().attempts()).isEqualTo(TestServers.tasks(out).size());
  }
}
