package dev.benchlake.analysis.stats;

/**
 * A confidence interval {@code [low, high]}. Either bound is NaN when the data cannot bound it
 * (too few observations for the requested confidence); {@link #UNBOUNDED} has both NaN.
 */
public record Interval(double low, double high) {
  public static final Interval UNBOUNDED = new Interval(Double.NaN, Double.NaN);

  /** Whether both bounds are numbers. */
  public boolean bounded() {
    return Double.isFinite(low) && Double.isFinite(high);
  }

  /** Whether the interval is bounded and lies entirely within {@code [from, to]}. */
  public boolean within(double from, double to) {
    return bounded() && low >= from && high <= to;
  }
}
