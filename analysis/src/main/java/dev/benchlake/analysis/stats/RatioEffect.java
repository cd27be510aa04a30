package dev.benchlake.analysis.stats;

/**
 * A change θ between two sides, estimated from their per-run figures, with what a verdict needs:
 * its intervals, the difference and equivalence tests, and how many replicates would decide it.
 * {@link LogRatio} (two independent groups, Welch's t on the logs) and {@link PairedLogRatio}
 * (pairs of runs, the one-sample t of the per-pair log ratios) implement it, so that
 * {@link RatioDecisions} and every report take either as it is.
 */
public interface RatioEffect {
  /** θ, candidate over baseline. */
  double ratio();

  /** {@code ln θ}. */
  double meanLogDifference();

  /** The two-sided interval of θ at {@code confidence}. */
  Interval interval(double confidence);

  /** Two-sided p of H0: θ = 1; NaN when undefined (no variation). */
  double pDifference();

  /** TOST p of H0: θ outside [1/(1+margin), 1+margin]; NaN when undefined. */
  double pEquivalence(double margin);

  /**
   * The spread of one replicate's log figure that the planning uses: the pooled between-run SD for
   * two groups, the SD of the per-pair log ratios for pairs.
   */
  double betweenRunSdLog();

  /** The replicates already present (the smaller side's runs, or the pairs): what a plan must go beyond. */
  int replicates();

  /**
   * What more replicates per side would do for an undecided call at level α and margin M, with
   * {@code power} ({@link RunsNeeded#advise}).
   */
  RunsAdvice runsToDecide(double alpha, double margin, double power);
}
