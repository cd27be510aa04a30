package dev.benchlake.analysis.report;

import java.util.Locale;

/** The conclusion about one step: what the candidate's latency did, if anything can be said. */
public enum Verdict {
  /** Significantly lower latency, by more than the practical margin. */
  FASTER,
  /** Significantly higher latency, by more than the practical margin: a regression. */
  SLOWER,
  /** The tests do not show a difference. */
  NO_SIGNIFICANT_DIFFERENCE,
  /** A real difference, but within the practical margin. */
  SIGNIFICANT_BUT_NEGLIGIBLE,
  /** The data cannot decide: too few runs, or no successful tasks on one side. */
  INCONCLUSIVE;

  /** The name in reports: {@code faster}, {@code no_significant_difference} … */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
