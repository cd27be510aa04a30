package dev.benchlake.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Real ingest processes ({@link KillableIngest}) killed with SIGKILL right after their N-th commit,
 * one after another on a thread of their own, so that the test JVM meanwhile re-runs and checks
 * the warehouses of earlier kills. Each child works in a warehouse of its own that nothing else
 * touches until its kill is {@linkplain #await awaited}; a child stopped at its point sleeps in
 * the commit listener, so when it is killed makes no difference to what it leaves. One child at a
 * time: on two cores a second would only slow the first.
 */
final class KillLane implements AutoCloseable {
  /** A child killed right after its {@code n}-th commit: its exit value and the seconds from its start to the kill. */
  record Killed(Path warehouse, boolean replace, int n, int exitValue, double seconds) {}

  private final ExecutorService lane = Executors.newSingleThreadExecutor(r -> {
    Thread thread = new Thread(r, "kill-lane");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<Process> live = ConcurrentHashMap.newKeySet();
  private final Path stderrDir;
  private final Path[] inputs;

  /** Children that ingest {@code inputs}; their stderr goes to files in {@code stderrDir}. */
  KillLane(Path stderrDir, Path... inputs) {
    this.stderrDir = stderrDir;
    this.inputs = inputs.clone();
  }

  /** Queues a child that ingests into {@code warehouse} (with {@code --replace}) and is killed after its {@code n}-th commit. */
  Future<Killed> kill(Path warehouse, boolean replace, int n) {
    return lane.submit(() -> {
      String point = "commit:" + n;
      Path stderr = Files.createTempFile(Files.createDirectories(stderrDir), "child-", ".err");
      long startNs = System.nanoTime();
      Process child = KillableIngest.start(point, warehouse, replace, stderr, inputs);
      live.add(child);
      try {
        KillableIngest.awaitPoint(child, point);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + ": " + Files.readString(stderr, StandardCharsets.UTF_8), e);
      } finally {
        child.destroyForcibly(); // SIGKILL on Unix
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
          throw new AssertionError("the ingest process killed at " + point + " did not end");
        }
        live.remove(child);
      }
      return new Killed(warehouse, replace, n, child.exitValue(), (System.nanoTime() - startNs) / 1e9);
    });
  }

  /** The kill, once made; what went wrong in the lane is thrown here. */
  static Killed await(Future<Killed> kill) throws InterruptedException, IOException {
    try {
      return kill.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Stops the lane: queued kills are dropped, a child still running is killed (a failed test leaves none). */
  @Override
  public void close() throws InterruptedException {
    lane.shutdownNow();
    for (int second = 0; second < 60; second++) {
      live.forEach(Process::destroyForcibly); // again each time: one may have started meanwhile
      if (lane.awaitTermination(1, TimeUnit.SECONDS)) {
        return;
      }
    }
  }
}
