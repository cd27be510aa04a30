package dev.benchlake.analysis.compare;

/**
 * How a study run until decided ({@code --until-decided}) came to its report: the looks' rule, its
 * plan in words, and the round after which it stopped. The report's α is that look's level, so its
 * intervals are the look's repeated confidence intervals
 * ({@link dev.benchlake.analysis.stats.SequentialLooks}).
 *
 * @param rule the boundary's name ({@link dev.benchlake.analysis.stats.SequentialLooks#NAME})
 * @param plan the looks in words ({@link dev.benchlake.analysis.stats.SequentialLooks#inWords})
 * @param stoppedAfterRound the round of the look this report is
 * @param maxRounds the last round the study would have run
 * @param everyStepDecided whether it stopped because every step was decided (else it ran out of rounds)
 */
public record SequentialStop(String rule, String plan, int stoppedAfterRound, int maxRounds,
    boolean everyStepDecided) {

  /** The methods' line. */
  public String sentence() {
    return "Run until decided: " + rule + ", " + plan + "; stopped after round " + stoppedAfterRound + " of at most "
        + maxRounds + (everyStepDecided ? ", every step decided."
            // Before the last round with steps open: only --budget stops there (issue 47).
            : stoppedAfterRound < maxRounds ? ", the time budget spent, with steps still undecided."
            : ", the last round, with steps still undecided.");
  }
}
