package dev.benchlake.loadgen.run;

import java.time.Instant;

/**
 * The run's time base: a monotonic origin ({@link System#nanoTime()}) that every time in
 * tasks.csv is relative to, and the wall-clock instant of that origin for the manifest.
 */
public final class RunClock {
  private final long originNanoTime;
  private final long originEpochNs;

  private RunClock(long originNanoTime, long originEpochNs) {
    this.originNanoTime = originNanoTime;
    this.originEpochNs = originEpochNs;
  }

  /** A clock whose origin is now. */
  public static RunClock startNow() {
    Instant wall = Instant.now();
    long mono = System.nanoTime();
    return new RunClock(mono, wall.getEpochSecond() * 1_000_000_000L + wall.getNano());
  }

  /** Nanoseconds since the origin. */
  public long now() {
    return System.nanoTime() - originNanoTime;
  }

  /** The origin as nanoseconds since the epoch (UTC). */
  public long originEpochNs() {
    return originEpochNs;
  }

  /** The origin as an instant. */
  public Instant origin() {
    return Instant.ofEpochSecond(0, originEpochNs);
  }

  /** Sleeps until {@code targetNs} (clock time) or until {@code control} stops the run. */
  public void sleepUntil(long targetNs, RunControl control) {
    long remaining;
    while ((remaining = targetNs - now()) > 0 && !control.stopRequested()) {
      // parkNanos may return early (spuriously or on unpark); loop until the target has passed.
      java.util.concurrent.locks.LockSupport.parkNanos(Math.min(remaining, 100_000_000L));
    }
  }
}
