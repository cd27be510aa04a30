package dev.benchlake.analysis.stats;

/**
 * Whether a run-level comparison can reach significance at all, and with how many runs it could
 * (benchstat's "need ≥ N samples"). With few runs the exact Mann–Whitney test has a floor: its
 * smallest two-sided p-value is {@code 2/C(n₁ + n₂, n₁)} (every candidate run beyond every
 * baseline run), e.g. 0.1 for 3 vs 3 runs. If that floor is above the level a test must reach,
 * no data can make the difference significant, and more runs are needed whatever the latencies.
 */
public final class RunCountGuidance {
  private static final int MAX_RUNS = 1000;

  private RunCountGuidance() {}

  /** Whether {@code n1} vs {@code n2} runs can give a p-value at or below {@code level}. */
  public static boolean enough(int n1, int n2, double level) {
    return n1 >= 1 && n2 >= 1 && MannWhitneyU.smallestP(n1, n2) <= level;
  }

  /**
   * The smallest number of runs per group (the same in both) that can reach {@code level}; capped
   * at 1000 for absurdly small levels.
   */
  public static int runsPerGroupNeeded(double level) {
    int runs = 1;
    while (runs < MAX_RUNS && MannWhitneyU.smallestP(runs, runs) > level) {
      runs++;
    }
    return runs;
  }
}
