package dev.benchlake.analysis.report;

import java.util.Locale;

/**
 * One of the two sides a run-level comparison weighs: the {@link #BASELINE} (compare's
 * {@code --baseline}; in a trend the base version, or the previous one) and the {@link #CANDIDATE}
 * (compare's {@code --candidate}; in a trend the version compared with it).
 */
public enum Side {
  BASELINE,
  CANDIDATE;

  /** The side's index in the engine's two groups of runs: 0 and 1. */
  public int index() {
    return ordinal();
  }

  /** {@code baseline}, {@code candidate}: as reports and JSON keys name the side. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
