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
 * @param budgetAlpha where a time budget made this look the last before the plan's: its level,
 *     what the plan had left ({@link dev.benchlake.analysis.stats.SequentialLooks#alphaLeftAt});
 *     null otherwise
 */
public record SequentialStop(String rule, String plan, int stoppedAfterRound, int maxRounds,
    boolean everyStepDecided, Double budgetAlpha) {

  /** A stop that no budget brought forward. */
  public SequentialStop(String rule, String plan, int stoppedAfterRound, int maxRounds, boolean everyStepDecided) {
    this(rule, plan, stoppedAfterRound, maxRounds, everyStepDecided, null);
  }

  /** The methods' line. */
  public String sentence() {
    String budget = budgetAlpha == null ? ""
        : " Its look was the last, the time budget fitting no other round, and was decided at the α the plan had "
            + "left: " + new java.math.BigDecimal(budgetAlpha).round(new java.math.MathContext(4)).stripTrailingZeros()
                .toPlainString() + ".";
    return "Run until decided: " + rule + ", " + plan + "; stopped after round " + stoppedAfterRound + " of at most "
        + maxRounds + (everyStepDecided ? ", every step decided."
            // Before the last round with steps open: only --budget stops there (issue 47).
            : stoppedAfterRound < maxRounds ? ", the time budget spent, with steps still undecided."
            : ", the last round, with steps still undecided.") + budget;
  }
}
