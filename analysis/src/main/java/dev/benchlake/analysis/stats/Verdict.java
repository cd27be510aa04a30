package dev.benchlake.analysis.stats;

import java.util.Locale;

/**
 * What a run-level comparison concludes about one step (see {@link RatioDecisions} for the rule).
 * "No significant difference" is deliberately not among them: not being able to tell is
 * {@link #INCONCLUSIVE}, and only a shown equivalence is {@link #EQUIVALENT}.
 */
public enum Verdict {
  FASTER,
  SLOWER,
  EQUIVALENT,
  INCONCLUSIVE;

  /** The name in report and trend JSON: {@code faster}, {@code slower}, … */
  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
