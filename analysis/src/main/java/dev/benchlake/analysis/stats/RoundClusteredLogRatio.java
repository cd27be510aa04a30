package dev.benchlake.analysis.stats;

/**
 * A group's paired change ({@link GroupLogRatio#paired}): {@code ln θ̂} with its round-clustered
 * standard error and Satterthwaite degrees of freedom, read as a t on the log scale
 * ({@link LogScaleT}) like the steps' own paired estimates.
 *
 * @param rounds G, the rounds (pair keys) any of the group's steps used
 * @param parameters 1, or 2 when some step's CPU set was fitted
 * @param meanLogDifference {@code ln θ̂}, the mean of the steps' paired log changes
 * @param seLog its standard error
 * @param df the t law's degrees of freedom
 */
public record RoundClusteredLogRatio(int rounds, int parameters, double meanLogDifference, double seLog, double df)
    implements RatioEffect {

  @Override
  public double ratio() {
    return Math.exp(meanLogDifference);
  }

  @Override
  public Interval interval(double confidence) {
    return t().interval(confidence);
  }

  @Override
  public double pDifference() {
    return t().pDifference();
  }

  @Override
  public double pEquivalence(double margin) {
    return t().pEquivalence(margin);
  }

  /** {@code se·√G}: the spread of one round's group log ratio that gives this standard error over G rounds. */
  @Override
  public double betweenRunSdLog() {
    return seLog * Math.sqrt(rounds);
  }

  @Override
  public int replicates() {
    return rounds;
  }

  /** {@link RunsNeeded#advise} as the steps' paired estimates plan: more rounds of the whole group. */
  @Override
  public RunsAdvice runsToDecide(double alpha, double margin, double power) {
    return RunsNeeded.advise(parameters == 2 ? SampleDesign.CROSSOVER : SampleDesign.PAIRED, betweenRunSdLog(),
        meanLogDifference, rounds, margin, alpha, power);
  }

  private LogScaleT t() {
    return new LogScaleT(meanLogDifference, seLog, df);
  }
}
