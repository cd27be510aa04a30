package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.EmbeddedServer;
import dev.benchlake.loadgen.db.ServerCrashes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server crashes and comes back in the middle of a run: loadgen keeps going and records every attempt. */
@org.junit.jupiter.api.Tag("integration")
class ServerFaultsTest {
  private static final Duration RUN = Duration.ofSeconds(8);
  private static EmbeddedServer server;

  @TempDir
  Path tmp;

  @BeforeAll
  static void start() {
    // A server of its own: this test crashes it.
    server = EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 10, null));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private RunResult runWhileCrashing(LoadgenConfig config) throws Exception {
    // 1 s into the step, not into the run: on a busy machine the set-up (table load, vacuum) can take
    // seconds, and a crash timed from the run's start then hit the set-up or the end-of-run snapshot.
    // The step (RUN) leaves 6 s for the restart, its crash recovery and the tasks after it.
    CompletableFuture<Void> stepStarted = new CompletableFuture<>();
    CompletableFuture<Void> crash = CompletableFuture.runAsync(() -> {
      try {
        stepStarted.get(120, TimeUnit.SECONDS);
        Thread.sleep(1_000);
        ServerCrashes.crashAndRestart(server, Duration.ofMillis(1_000));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    RunResult result = Loadgen.run(config, new ProgressListener() {
      @Override
      public void onStepStart(String step, int index, int count) {
        stepStarted.complete(null);
      }
    }, server);
    crash.get();
    return result;
  }

  @Test
  void closedLoopReconnectsAndRecordsEachFailedAttempt() throws Exception {
    Path out = tmp.resolve("closed");
    RunResult result = runWhileCrashing(TestServers.sharedConfig(out).workload("point-select").tableSize(1000)
        .mode(LoadgenConfig.Mode.closed(3)).duration(RUN).build());

    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    List<TaskRecord> tasks = TestServers.tasks(out);
    RunManifest m = TestServers.manifest(out);
    assertThat(m.summary().attempts()).as("one line per attempt").isEqualTo(tasks.size());
    List<TaskRecord> failed = tasks.stream().filter(t -> !t.ok()).toList();
    assertThat(failed).isNotEmpty().allMatch(t -> t.sqlstate().matches("08...|57P0."));
    assertThat(m.summary().errorsBySqlstate()).isEqualTo(failed.stream()
        .collect(Collectors.groupingBy(TaskRecord::sqlstate, java.util.TreeMap::new, Collectors.counting())));
    long lastFailureEnd = failed.stream().mapToLong(TaskRecord::endNs).max().orElseThrow();
    assertThat(tasks).as("tasks succeed again after the restart")
        .anyMatch(t -> t.ok() && t.startNs() > lastFailureEnd);
    // While the server is down, backoff keeps the attempts few (10 ms doubling to 1 s per client).
    assertThat(failed.size()).isLessThan(200);
  }

  @Test
  void burstPoolRecoversAfterTheRestart() throws Exception {
    Path out = tmp.resolve("burst");
    RunResult result = runWhileCrashing(TestServers.sharedConfig(out).workload("point-select").tableSize(1000)
        .mode(LoadgenConfig.Mode.burst(50, 3, Duration.ofSeconds(2))).duration(RUN).build());

    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    List<TaskRecord> tasks = TestServers.tasks(out);
    assertThat(TestServers.manifest(out).summary().attempts()).isEqualTo(tasks.size());
    List<TaskRecord> failed = tasks.stream().filter(t -> !t.ok()).toList();
    assertThat(failed).isNotEmpty();
    long lastFailureEnd = failed.stream().mapToLong(TaskRecord::endNs).max().orElseThrow();
    assertThat(tasks).anyMatch(t -> t.ok() && t.startNs() > lastFailureEnd);
  }
}
