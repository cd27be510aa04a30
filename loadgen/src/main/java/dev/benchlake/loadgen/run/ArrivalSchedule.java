package dev.benchlake.loadgen.run;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When open-loop tasks should start: at a fixed interval ({@code 1/rate}) or as a Poisson process
 * (exponential gaps with mean {@code 1/rate}, drawn by inversion from the run's seed). Not
 * thread-safe: the open-loop driver draws under its own lock.
 */
public final class ArrivalSchedule {
  /** The shape of the arrivals ({@code --schedule}). */
  public enum Kind {
    POISSON, FIXED;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Kind kind;
  private final double meanGapNs;
  private final SplittableRandom random;
  private final long originNs;
  private long count;
  private double nextNs;

  /** @param originNs when the first gap starts (the step start) */
  public ArrivalSchedule(Kind kind, double ratePerSecond, long originNs, SplittableRandom random) {
    this.kind = kind;
    this.meanGapNs = 1e9 / ratePerSecond;
    this.random = random;
    this.originNs = originNs;
    this.nextNs = originNs;
  }

  /** The intended start of the next task. */
  public long next() {
    if (kind == Kind.FIXED) {
      // Computed from the origin, not by adding gaps, so rounding never drifts.
      return originNs + (long) (count++ * meanGapNs);
    }
    nextNs += -Math.log(1.0 - random.nextDouble()) * meanGapNs;
    count++;
    return (long) nextNs;
  }
}
