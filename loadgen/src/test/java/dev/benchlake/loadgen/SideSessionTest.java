package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadgen --session stdio} as a duet's coordinator drives it, in a JVM of its own: runs one
 * after another in one process, each behind the barrier and on a server of its own, and the
 * session's end on a refused or failed run, with that run's exit code and nothing lost of the runs
 * before it.
 */
@Tag("integration")
class SideSessionTest {
  @TempDir
  Path tmp;

  /** A small sysbench run's options, recorded in {@code dir}, waiting at the stdin barrier. */
  private static List<String> run(Path dir, String... more) {
    List<String> args = new ArrayList<>(List.of("--pg-version", "17", "--workload", "sysbench", "--steps",
        "point-select,read-only", "--tables", "1", "--table-size", "1000", "--clients", "2", "--duration", "300ms",
        "--warmup", "0s", "--out", dir.toString(), "--barrier", "stdio", "--quiet"));
    args.addAll(List.of(more));
    return args;
  }

  /** The session's process: its stdin, its stdout lines, its stderr in a file. */
  private final class Session implements AutoCloseable {
    final Process process;
    final Writer in;
    final BufferedReader out;
    final Path err = tmp.resolve("session.err");

    Session() throws IOException {
      process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), LoadgenMain.class.getName(), "--session", "stdio")
          .redirectError(err.toFile()).start();
      in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    void send(String line) throws IOException {
      in.write(line + "\n");
      in.flush();
    }

    /**
     * Answers every barrier line of the current run with a start 50 ms ahead, until the run's end
     * ({@link SideSession#DONE}: true) or the end of the output (false); the steps it waited at go to {@code steps}.
     */
    boolean runToEnd(List<String> steps) throws IOException {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals(SideSession.DONE)) {
          return true;
        }
        Optional<StdioBarrier.Ready> ready = StdioBarrier.ready(line);
        if (ready.isPresent()) {
          steps.add(ready.get().step());
          Instant now = Instant.now();
          send(StdioBarrier.go(ready.get().index(), now.getEpochSecond() * 1_000_000_000L + now.getNano() + 50_000_000L));
        }
      }
      return false;
    }

    int exit() throws Exception {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the session ended").isTrue();
      return process.exitValue();
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  @Test
  void runsOneAfterAnotherInOneProcessEachOnAServerOfItsOwn() throws Exception {
    try (Session session = new Session()) {
      List<RunManifest> manifests = new ArrayList<>();
      for (int i = 1; i <= 2; i++) {
        Path dir = tmp.resolve("run" + i);
        session.send(SideSession.run(run(dir, "--label", "round=" + i)));
        List<String> steps = new ArrayList<>();
        assertThat(session.runToEnd(steps)).as("run %d ended with the done line", i).isTrue();
        assertThat(steps).containsExactly("point-select", "read-only");
        RunManifest m = TestServers.manifest(dir);
        assertThat(m.status()).isEqualTo(RunStatus.COMPLETE);
        assertThat(m.labels()).containsEntry("round", Integer.toString(i));
        assertThat(m.stepWindows()).allMatch(w -> w.shared());
        assertThat(TestServers.tasks(dir)).isNotEmpty();
        manifests.add(m);
      }
      assertThat(manifests.get(0).runId()).isNotEqualTo(manifests.get(1).runId());
      assertThat(manifests.get(0).target().serverStart()).as("each run on a server start of its own")
          .isNotEqualTo(manifests.get(1).target().serverStart());
      session.in.close();
      assertThat(session.exit()).as("the end of stdin ends the session").isEqualTo(ExitCode.OK);
    }
  }

  @Test
  void aRefusedRunEndsTheSessionWithItsCodeAndKeepsTheRunsBeforeIt() throws Exception {
    try (Session session = new Session()) {
      Path first = tmp.resolve("first");
      session.send(SideSession.run(run(first)));
      assertThat(session.runToEnd(new ArrayList<>())).isTrue();
      session.send(SideSession.run(run(tmp.resolve("second"), "--pg-setting", "no_such_setting=1")));
      assertThat(session.runToEnd(new ArrayList<>())).as("no done line after a refused run").isFalse();
      assertThat(session.exit()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(Files.readString(session.err, StandardCharsets.UTF_8)).contains("no_such_setting");
      assertThat(Files.exists(tmp.resolve("second").resolve("manifest.json"))).isFalse();
      assertThat(TestServers.manifest(first).status()).isEqualTo(RunStatus.COMPLETE);
    }
  }

  @Test
  void aRunStoppedAtTheBarrierEndsTheSessionAsInterrupted() throws Exception {
    try (Session session = new Session()) {
      Path dir = tmp.resolve("stopped");
      session.send(SideSession.run(run(dir)));
      String line;
      while ((line = session.out.readLine()) != null && StdioBarrier.ready(line).isEmpty()) {
        // up to the first step's barrier
      }
      session.send(StdioBarrier.STOP);
      assertThat(session.runToEnd(new ArrayList<>())).isFalse();
      assertThat(session.exit()).isEqualTo(ExitCode.FAILURE);
      assertThat(TestServers.manifest(dir).status()).isEqualTo(RunStatus.INTERRUPTED);
    }
  }

  /**
   * The coordinator killed ({@code kill -9}) while the side is in a step of a minute: stdin ends,
   * and the run stops at once (interrupted, its server stopped and its cluster removed), not after
   * the step; before, the side ran its step to the end first.
   */
  @Test
  void theHolderGoneInTheMiddleOfAStepStopsTheRunAtOnce() throws Exception {
    try (Session session = new Session()) {
      Path dir = tmp.resolve("cut");
      Path pg = tmp.resolve("pg");
      List<String> args = new ArrayList<>(run(dir, "--pg-dir", pg.toString()));
      args.set(args.indexOf("300ms"), "60s");
      session.send(SideSession.run(args));
      String line;
      while ((line = session.out.readLine()) != null && StdioBarrier.ready(line).isEmpty()) {
        // up to the first step's barrier
      }
      Instant now = Instant.now();
      session.send(StdioBarrier.go(StdioBarrier.ready(line).orElseThrow().index(),
          now.getEpochSecond() * 1_000_000_000L + now.getNano()));
      Thread.sleep(500);
      long goneNs = System.nanoTime();
      session.in.close();
      assertThat(session.exit()).isEqualTo(ExitCode.FAILURE);
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - goneNs)).as("seconds to stop, of a 60 s step")
          .isLessThan(20);
      assertThat(Files.readString(session.err, StandardCharsets.UTF_8))
          .contains("the study's process went away (stdin closed) in the middle of a run: stopping it");
      assertThat(TestServers.manifest(dir).status()).isEqualTo(RunStatus.INTERRUPTED);
      try (var left = Files.list(pg)) {
        assertThat(left.map(p -> p.getFileName().toString())).as("its server's cluster, removed")
            .allMatch(name -> name.startsWith("benchlake-initdb-"));
      }
    }
  }

  @Test
  void aLineThatIsNotARunIsRefused() throws Exception {
    try (Session session = new Session()) {
      session.send("stop");
      assertThat(session.exit()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(Files.readString(session.err, StandardCharsets.UTF_8)).contains("expected 'run [OPTIONS]'");
    }
  }
}
