package dev.benchlake.loadgen.run;

import java.util.function.LongSupplier;

/**
 * A handicap of known size, for {@code benchlake calibrate}: after each successful task the client
 * spins on its own CPU until {@code stretch} × the task's service time has passed, and the task ends
 * then. Every recorded latency of a closed-loop step is so (1 + stretch) × its own, every quantile
 * of the run scales by exactly 1 + stretch, and so does the ratio a comparison must recover,
 * whatever the step's speed. It spins rather than sleeps: a sleep overshoots by 50 µs and more,
 * which on a 100 µs point select would be a handicap of unknown size. The recorded end is the
 * target itself (the spin passes it by one clock read), so the stretch is exact to the
 * nanosecond. A failed task is not stretched: failures are compared on their own.
 *
 * <p>Closed loops only: an open loop's or a burst's latency counts time waiting behind other
 * tasks, which a stretch of each task's service lengthens by more than 1 + stretch.
 */
public final class HandicapStretch {
  /** No handicap: the task ends when its response arrives. */
  public static final HandicapStretch NONE = new HandicapStretch(0);

  /** The largest stretch: a handicap of 100 %, side b twice as slow. */
  public static final double MAX = 1.0;

  private final double stretch;

  /** @param stretch the share of each task's service time added after it, 0..{@link #MAX} */
  public HandicapStretch(double stretch) {
    if (!(stretch >= 0 && stretch <= MAX)) {
      throw new IllegalArgumentException("a handicap stretch is 0.." + MAX + ", not " + stretch);
    }
    this.stretch = stretch;
  }

  public double stretch() {
    return stretch;
  }

  /**
   * Spins until {@code startNs + (1 + stretch) × (endNs − startNs)} on {@code clock}, and returns
   * that instant: the task's end to record.
   *
   * @param startNs when the task started (clock time)
   * @param endNs when its response arrived (clock time)
   */
  public long end(long startNs, long endNs, LongSupplier clock) {
    if (stretch == 0) {
      return endNs;
    }
    long targetNs = endNs + Math.round(stretch * (endNs - startNs));
    while (clock.getAsLong() < targetNs) {
      Thread.onSpinWait();
    }
    return targetNs;
  }
}
