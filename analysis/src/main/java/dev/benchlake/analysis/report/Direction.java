package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.Verdict;

/**
 * Which way of a figure is better: latency is better lower, throughput higher. It turns a ratio
 * θ (candidate over baseline) into words, the same in every report: which side of 1 is better,
 * and whether a change up is {@code faster} or {@code slower}.
 */
public enum Direction {
  LOWER_IS_BETTER,
  HIGHER_IS_BETTER;

  public boolean lowerIsBetter() {
    return this == LOWER_IS_BETTER;
  }

  /** {@link Verdict#FASTER} or {@link Verdict#SLOWER} for a ratio above 1 ({@code up}) or below. */
  public Verdict verdictOf(boolean up) {
    return up == lowerIsBetter() ? Verdict.SLOWER : Verdict.FASTER;
  }

  /** {@code below 1 is better}: the side of 1 a reader should hope for. */
  public String betterSideOfOne() {
    return (lowerIsBetter() ? "below" : "above") + " 1 is better";
  }

  /** {@code lower is better}. */
  public String better() {
    return (lowerIsBetter() ? "lower" : "higher") + " is better";
  }
}
