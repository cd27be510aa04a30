package dev.benchlake.analysis.stats;

/**
 * The change θ from pairs of runs, one of each side measured together (a duet's round, or runs
 * paired by a label): the geometric mean of the per-pair ratios, the one-sample t on their logs.
 *
 * <p>With {@code d_i = ln(candidate_i) − ln(baseline_i)} for the {@code n} pairs,
 * {@code d̄ = mean(d_i)} is {@link #meanLogDifference()}, {@code s = SD(d_i)} ({@code ddof = 1}) is
 * {@link #sdLogDifference()}, {@code se = s/√n} is {@link #seLog()} and {@code df = n − 1}. As for
 * {@link LogRatio}, everything is read on the log scale and exponentiated ({@link LogScaleT}):
 *
 * <ul>
 *   <li>{@link #ratio()} {@code = exp(d̄)}, the geometric mean of the per-pair ratios
 *       {@code candidate_i/baseline_i} (which is also the ratio of the two sides' geometric means);
 *   <li>{@link #interval(double)} {@code = exp(d̄ ± t_{(1+c)/2, n−1}·s/√n)}, scipy's
 *       {@code ttest_rel(log c, log b).confidence_interval(c)} (= {@code ttest_1samp(d, 0)}'s)
 *       exponentiated;
 *   <li>{@link #pDifference()} {@code = 2·P(T_{n−1} ≤ −|d̄/se|)}, {@code ttest_rel}'s p;
 *   <li>{@link #pEquivalence(double)}: TOST on the {@code d_i} against {@code ±ln(1+M)}: the larger
 *       of {@code ttest_1samp(d, −L, alternative='greater')} and
 *       {@code ttest_1samp(d, L, alternative='less')}.
 * </ul>
 *
 * <p>The pairing is what makes this worth having: what disturbs both runs of a pair alike (the
 * machine's noise at that moment) cancels in {@code d_i}, so {@code s} can be far below the
 * between-run spread of either side ({@code bench/head_to_head.py}: 0.008 against 0.23). When every
 * pair has the same log ratio ({@code s = 0}) the interval is θ itself and both p-values are NaN,
 * as scipy's: no verdict can be drawn. Fewer than two pairs are refused, as {@link LogRatio} refuses
 * a single run: one pair cannot show how much pairs differ.
 *
 * @param pairs n, the pairs
 * @param meanLogDifference {@code d̄ = ln θ}
 * @param sdLogDifference {@code s}, the SD of the per-pair log ratios
 */
public record PairedLogRatio(int pairs, double meanLogDifference, double sdLogDifference) implements PairedTEffect {

  /**
   * @param baselineFigures the baseline run's figure of each pair, at least two, finite and positive
   * @param candidateFigures the candidate run's figure of the same pairs, in the same order
   */
  public static PairedLogRatio of(double[] baselineFigures, double[] candidateFigures) {
    return ofLogRatios(logRatios(baselineFigures, candidateFigures));
  }

  /**
   * {@code d_i = ln(candidate_i) − ln(baseline_i)}, each figure checked as {@link #of} checks it:
   * what {@link CrossoverLogRatio} fits too.
   */
  public static double[] logRatios(double[] baselineFigures, double[] candidateFigures) {
    if (baselineFigures.length != candidateFigures.length) {
      throw new IllegalArgumentException("pairs need as many baseline as candidate figures, not "
          + baselineFigures.length + " and " + candidateFigures.length);
    }
    double[] b = LogScaleT.logs(baselineFigures, "baseline");
    double[] c = LogScaleT.logs(candidateFigures, "candidate");
    double[] d = new double[b.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = c[i] - b[i];
    }
    return d;
  }

  /**
   * From the per-pair log ratios {@code d_i = ln(candidate_i/baseline_i)} themselves (e.g. a
   * mean of several steps' log ratios per pair), at least two, finite.
   */
  public static PairedLogRatio ofLogRatios(double[] logRatios) {
    if (logRatios.length < 2) {
      throw new IllegalArgumentException("pairs need at least two log ratios, have " + logRatios.length);
    }
    CrossoverLogRatio.requirePairs(logRatios, null);
    double mean = LogScaleT.mean(logRatios);
    return new PairedLogRatio(logRatios.length, mean, Math.sqrt(LogScaleT.variance(logRatios, mean)));
  }

  /** {@code se = s/√n}. */
  @Override
  public double seLog() {
    return sdLogDifference / Math.sqrt(pairs);
  }

  /** {@code n − 1}. */
  @Override
  public int df() {
    return pairs - 1;
  }

  /**
   * The per-pair spread: {@code s}, the SD of the per-pair log ratios. It plays the part that the
   * between-run SD plays for two independent groups (what one replicate adds), and is what
   * {@link RunsNeeded} plans with for {@link SampleDesign#PAIRED}; it is not the spread of either
   * side's runs, which the pairing cancels.
   */
  @Override
  public double betweenRunSdLog() {
    return sdLogDifference;
  }

  /** The pairs: each side has one run in each. */
  @Override
  public int replicates() {
    return pairs;
  }

  /** Pairs: {@link RunsNeeded#advise} for {@link SampleDesign#PAIRED}, the one-sample t's exact power. */
  @Override
  public RunsAdvice runsToDecide(double alpha, double margin, double power) {
    return RunsNeeded.advise(SampleDesign.PAIRED, sdLogDifference, meanLogDifference, pairs, margin, alpha, power);
  }
}
