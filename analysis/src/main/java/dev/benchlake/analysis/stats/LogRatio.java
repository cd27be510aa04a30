package dev.benchlake.analysis.stats;

/**
 * Ratio of geometric means (candidate / baseline) of per-run figures; Welch's t on the logs.
 *
 * <p>With {@code x = ln(figure)} per run, {@code d = mean(x_c) − mean(x_b)} is
 * {@link #meanLogDifference()}, {@code se = √(s_c²/n_c + s_b²/n_b)} (sample variances,
 * {@code ddof = 1}) is {@link #seLog()} and {@code df} is Welch–Satterthwaite's
 * {@code (s_c²/n_c + s_b²/n_b)² / ((s_c²/n_c)²/(n_c − 1) + (s_b²/n_b)²/(n_b − 1))}. Everything
 * is read on the log scale and exponentiated, because run-to-run noise of latencies and
 * throughputs is multiplicative and an interval of a ratio must stay positive:
 *
 * <ul>
 *   <li>{@link #ratio()} {@code = exp(d)}, the change θ;
 *   <li>{@link #interval(double)} {@code = exp(d ± t_{(1+c)/2, df}·se)}, scipy's
 *       {@code ttest_ind(log c, log b, equal_var=False).confidence_interval(c)} exponentiated;
 *   <li>{@link #pDifference()} {@code = 2·P(T_df ≤ −|d/se|)}, H0: θ = 1;
 *   <li>{@link #pEquivalence(double)}: TOST (Schuirmann 1987) against the band
 *       {@code [1/(1+M), 1+M]}, i.e. {@code ±L} with {@code L = ln(1+M)} on the log scale: the
 *       larger of {@code P(T_df ≥ (d + L)/se)} (H0: θ ≤ 1/(1+M)) and {@code P(T_df ≤ (d − L)/se)}
 *       (H0: θ ≥ 1+M). It is ≤ α exactly when the 1 − 2α interval lies inside the band.
 * </ul>
 *
 * <p>When every run of both groups has the same figure ({@code se = 0}) the interval is the ratio
 * itself, df and both p-values are NaN (as scipy's), so no verdict can be drawn from them.
 * Groups of fewer than two runs are refused: the caller reports them as inconclusive with the
 * reason, since no between-run variance can be estimated from one run.
 */
public record LogRatio(int nBaseline, int nCandidate, double meanLogDifference, double seLog, double df,
    double sdLogBaseline, double sdLogCandidate) implements RatioEffect {

  /**
   * @param baselineFigures per-run figures of the baseline, at least two, finite and positive
   * @param candidateFigures per-run figures of the candidate, likewise
   */
  public static LogRatio of(double[] baselineFigures, double[] candidateFigures) {
    double[] b = LogScaleT.logs(baselineFigures, "baseline");
    double[] c = LogScaleT.logs(candidateFigures, "candidate");
    double meanB = LogScaleT.mean(b);
    double meanC = LogScaleT.mean(c);
    double varianceB = LogScaleT.variance(b, meanB);
    double varianceC = LogScaleT.variance(c, meanC);
    double vb = varianceB / b.length;
    double vc = varianceC / c.length;
    double se2 = vb + vc;
    double df = se2 > 0 ? se2 * se2 / (vb * vb / (b.length - 1) + vc * vc / (c.length - 1)) : Double.NaN;
    return new LogRatio(b.length, c.length, meanC - meanB, Math.sqrt(se2), df, Math.sqrt(varianceB), Math.sqrt(varianceC));
  }

  /** θ = exp(meanLogDifference): the ratio of the geometric means, candidate over baseline. */
  @Override
  public double ratio() {
    return Math.exp(meanLogDifference);
  }

  /** The exponentiated Welch interval at {@code confidence} (e.g. 0.95), two-sided. */
  @Override
  public Interval interval(double confidence) {
    return welch().interval(confidence);
  }

  /** Two-sided Welch p-value of H0: θ = 1; NaN when se = 0. */
  @Override
  public double pDifference() {
    return welch().pDifference();
  }

  /**
   * TOST p-value of H0: θ outside {@code [1/(1+margin), 1+margin]} (margin 0.05 = 5 %): the larger
   * of the two one-sided Welch p-values; NaN when se = 0.
   * A margin of 0 gives p ≥ 0.5: nothing is equivalent to an empty band.
   */
  @Override
  public double pEquivalence(double margin) {
    return welch().pEquivalence(margin);
  }

  /**
   * The between-run spread: the pooled SD of the log figures,
   * {@code √(((n_b − 1)·s_b² + (n_c − 1)·s_c²)/(n_b + n_c − 2))}. This is what
   * {@link RunsNeeded} plans with.
   */
  @Override
  public double betweenRunSdLog() {
    double pooled = ((nBaseline - 1) * sdLogBaseline * sdLogBaseline + (nCandidate - 1) * sdLogCandidate * sdLogCandidate)
        / (nBaseline + nCandidate - 2);
    return Math.sqrt(pooled);
  }

  /** The smaller group's runs. */
  @Override
  public int replicates() {
    return Math.min(nBaseline, nCandidate);
  }

  /** Two independent groups of equal size: {@link RunsNeeded#advise}, the two-sample t's exact power. */
  @Override
  public RunsAdvice runsToDecide(double alpha, double margin, double power) {
    return RunsNeeded.advise(SampleDesign.TWO_GROUPS, betweenRunSdLog(), meanLogDifference, replicates(), margin, alpha,
        power);
  }

  private LogScaleT welch() {
    return new LogScaleT(meanLogDifference, seLog, df);
  }
}
