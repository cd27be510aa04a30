package dev.benchlake.app.study.duet;

import java.time.Instant;

/**
 * The duet's one clock across processes: ns since the epoch. The barrier's start instants are
 * sent to the sides in it, and the in-window swap counts its periods from them, so both read it.
 */
public final class EpochClock {
  private EpochClock() {}

  /** Now, in ns since the epoch. */
  public static long nowNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
