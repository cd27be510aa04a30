package dev.benchlake.analysis.stats;

/**
 * The change θ from duet pairs whose sides swap CPU sets every round, with the set's own effect
 * fitted: the two-period crossover analysis (Hills &amp; Armitage 1979), the CPU set in the part of
 * the period. A duet puts each side on its own set and swaps them every round; when one set is
 * slower (on a VM every disk interrupt may land on one CPU), the per-pair log ratio swings by
 * ±c with the swap, and the one-sample t of {@link PairedLogRatio} counts that swing as noise.
 *
 * <p>With {@code d_i = ln(candidate_i/baseline_i)} and {@code x_i = +1} when the baseline ran on set
 * one, {@code −1} on set two, the model is {@code d_i = ln θ + c·x_i + e_i}, fitted by least squares:
 * with {@code m₁}, {@code m₂} the mean log ratios of the {@code n₁}, {@code n₂} pairs of each
 * assignment,
 *
 * <ul>
 *   <li>{@link #meanLogDifference()} {@code = ln θ̂ = (m₁ + m₂)/2}: θ with each assignment weighted
 *       alike, so the set's advantage cancels even when the rounds are odd in number;
 *   <li>{@link #setEffectLog()} {@code = ĉ = (m₁ − m₂)/2}: half the gap between the assignments, how
 *       much faster the candidate looks when the baseline has set one;
 *   <li>{@link #residualSdLog()} {@code = s}, with {@code s² = (Σ(d − m₁)² + Σ(d − m₂)²)/(n − 2)},
 *       the spread of one pair around its assignment's mean;
 *   <li>{@link #seLog()} {@code = (s/2)·√(1/n₁ + 1/n₂)} ({@code s/√n} when balanced), {@code df = n − 2}.
 * </ul>
 *
 * <p>Interval, difference test and TOST are those of {@link LogScaleT} on {@code (ln θ̂, se, n − 2)}
 * ({@link PairedTEffect}),
 * which is what ordinary least squares with the columns {@code [1, x]} gives for the intercept
 * ({@code make_reference.py}'s {@code crossover_log_ratios}, solved with numpy's {@code lstsq}).
 * Each assignment needs at least two pairs: fewer leaves the swing and the noise inseparable.
 *
 * @param pairs n
 * @param pairsOnSetOne n₁, the pairs whose baseline ran on set one
 * @param meanLogDifference {@code ln θ̂}
 * @param setEffectLog {@code ĉ}
 * @param residualSdLog {@code s}
 */
public record CrossoverLogRatio(int pairs, int pairsOnSetOne, double meanLogDifference, double setEffectLog,
    double residualSdLog) implements PairedTEffect {

  /** The fewest pairs of each assignment the fit takes. */
  public static final int MIN_PAIRS_PER_SET = 2;

  /**
   * @param logRatios {@code d_i}, finite
   * @param baselineOnSetOne for each pair, whether its baseline ran on set one
   * @throws IllegalArgumentException when an assignment has fewer than {@link #MIN_PAIRS_PER_SET} pairs
   */
  public static CrossoverLogRatio of(double[] logRatios, boolean[] baselineOnSetOne) {
    requirePairs(logRatios, baselineOnSetOne);
    double[] sum = new double[2];
    int[] count = new int[2];
    for (int i = 0; i < logRatios.length; i++) {
      int g = baselineOnSetOne[i] ? 0 : 1;
      sum[g] += logRatios[i];
      count[g]++;
    }
    if (!fits(baselineOnSetOne)) {
      throw new IllegalArgumentException("the set term needs at least " + MIN_PAIRS_PER_SET
          + " pairs with the baseline on each set, have " + count[0] + " and " + count[1]);
    }
    double m1 = sum[0] / count[0];
    double m2 = sum[1] / count[1];
    double rss = 0;
    for (int i = 0; i < logRatios.length; i++) {
      double r = logRatios[i] - (baselineOnSetOne[i] ? m1 : m2);
      rss += r * r;
    }
    return new CrossoverLogRatio(logRatios.length, count[0], (m1 + m2) / 2, (m1 - m2) / 2,
        Math.sqrt(rss / (logRatios.length - 2)));
  }

  /**
   * The pairs' log ratios finite and, where the sets are given, a set for each pair: what both fits
   * of the crossover model ({@link HuberLogRatio} too) take.
   *
   * @param baselineOnSetOne null: no sets
   */
  static void requirePairs(double[] logRatios, boolean[] baselineOnSetOne) {
    if (baselineOnSetOne != null && logRatios.length != baselineOnSetOne.length) {
      throw new IllegalArgumentException("every pair needs its set, have " + logRatios.length + " log ratios and "
          + baselineOnSetOne.length + " sets");
    }
    for (double d : logRatios) {
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("log ratios must be finite, not " + d);
      }
    }
  }

  /** Whether these assignments give the fit enough pairs of each. */
  public static boolean fits(boolean[] baselineOnSetOne) {
    int one = 0;
    for (boolean b : baselineOnSetOne) {
      one += b ? 1 : 0;
    }
    return one >= MIN_PAIRS_PER_SET && baselineOnSetOne.length - one >= MIN_PAIRS_PER_SET;
  }

  /** {@code (s/2)·√(1/n₁ + 1/n₂)}. */
  @Override
  public double seLog() {
    return residualSdLog / 2 * Math.sqrt(1.0 / pairsOnSetOne + 1.0 / (pairs - pairsOnSetOne));
  }

  /** {@code n − 2}: the mean and the set term are both estimated. */
  @Override
  public int df() {
    return pairs - 2;
  }

  /**
   * The set's effect on the ratio, {@code exp(2ĉ)}: the candidate-over-baseline ratio with the
   * baseline on set one, over the same with the baseline on set two. 1 when the sets are alike.
   */
  public double setRatio() {
    return Math.exp(2 * setEffectLog);
  }

  /** {@code s}: what one more pair adds once the set is accounted for (what {@link RunsNeeded} plans with). */
  @Override
  public double betweenRunSdLog() {
    return residualSdLog;
  }

  @Override
  public int replicates() {
    return pairs;
  }

  /** {@link RunsNeeded#advise} for {@link SampleDesign#CROSSOVER}: balanced pairs, {@code df = n − 2}. */
  @Override
  public RunsAdvice runsToDecide(double alpha, double margin, double power) {
    return RunsNeeded.advise(SampleDesign.CROSSOVER, residualSdLog, meanLogDifference, pairs, margin, alpha, power);
  }
}
