package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Range;
/**
 * The task-level tests of candidate against baseline for one step (null where undefined: e.g. a
 * group without successful tasks, or Welch's t with fewer than two values). Signs: positive means
 * the candidate is slower (U above n_c·n_b/2, t, shift and δ above 0, ratio above 1).
 *
 * @param mannWhitneyU the candidate's U ({@code #(c > b) + ½·#(c = b)})
 * @param mannWhitneyP two-sided, exact or normal ({@link #mannWhitneyMethod})
 * @param ksD the two-sample Kolmogorov–Smirnov statistic
 * @param fisherErrorsP Fisher's exact test on errors vs successes
 * @param hlShiftS Hodges–Lehmann shift, candidate minus baseline
 * @param hlCi95S its 95 % confidence interval ({@link #hlMethod}: over all pairs, or a sample)
 * @param medianRatio median(candidate)/median(baseline)
 * @param medianRatioCi95 bootstrap 95 % interval of that ratio
 * @param pAdjusted the Mann–Whitney p-value adjusted across the compared steps
 */
public record Tests(Double mannWhitneyU, Double mannWhitneyP, Double welchT, Double welchDf, Double welchP,
    Double ksD, Double ksP, double fisherErrorsP, Double hlShiftS, Range hlCi95S, Double cliffsDelta,
    String cliffsMagnitude, Double medianRatio, Range medianRatioCi95, Double pAdjusted,
    String mannWhitneyMethod, String ksMethod, String hlMethod, String medianRatioMethod) {

  /** A copy with the adjusted p-value. */
  public Tests withPAdjusted(Double adjusted) {
    return new Tests(mannWhitneyU, mannWhitneyP, welchT, welchDf, welchP, ksD, ksP, fisherErrorsP, hlShiftS,
        hlCi95S, cliffsDelta, cliffsMagnitude, medianRatio, medianRatioCi95, adjusted, mannWhitneyMethod, ksMethod,
        hlMethod, medianRatioMethod);
  }
}
