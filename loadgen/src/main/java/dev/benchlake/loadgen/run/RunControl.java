package dev.benchlake.loadgen.run;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Stops a run early, from any thread: a signal (Ctrl-C, SIGTERM), a failed tasks.csv writer, a
 * server that stayed away too long. The first reason given wins.
 */
public final class RunControl {
  private final AtomicReference<String> stopReason = new AtomicReference<>();
  private volatile boolean stopRequested;

  /** Asks every worker to stop after its current task. */
  public void requestStop(String reason) {
    stopReason.compareAndSet(null, reason);
    stopRequested = true;
  }

  public boolean stopRequested() {
    return stopRequested;
  }

  /** Why the run was stopped, or null. */
  public String stopReason() {
    return stopReason.get();
  }
}
