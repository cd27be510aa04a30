package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.Interval;

/** A closed interval of a report; either bound null when the data cannot bound it. */
public record Range(Double low, Double high) {
  public static final Range UNBOUNDED = new Range(null, null);
  /**
   * An interval of a ratio wider than this factor ({@code high/low}) says too little for its
   * point estimate to be read as a change: benchstat prints {@code ~} there, the reports "too
   * noisy to say". A ratio whose interval runs from 0.6 to 1.9 is compatible with anything from a
   * large gain to a large loss, and "+5.2 %" in front of it would overstate what is known.
   */
  public static final double TOO_NOISY_FACTOR = 2;

  /** The interval as a report range: unbounded where either bound is not a number. */
  public static Range of(Interval interval) {
    return interval.bounded() ? new Range(interval.low(), interval.high()) : UNBOUNDED;
  }

  public boolean bounded() {
    return low != null && high != null;
  }

  /** Whether this interval of a ratio is bounded and wider than {@link #TOO_NOISY_FACTOR}. */
  public boolean tooNoisyToSay() {
    return bounded() && low > 0 && high / low > TOO_NOISY_FACTOR;
  }
}
