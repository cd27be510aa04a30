package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Range;

/**
 * The task-level tests of candidate against baseline for one step, grouped by test. They treat
 * tasks as independent, so they are descriptive, within-run figures: no verdict rests on them.
 * Every test but Fisher's needs successful tasks on both sides; without them they are null. Signs:
 * positive means the candidate is slower (U above n_c·n_b/2, t, shift and δ above 0, ratio above 1).
 *
 * @param fisherErrorsP Fisher's exact test on errors vs successes
 */
public record TaskTests(MannWhitney mannWhitney, Welch welch, Ks ks, double fisherErrorsP,
    HodgesLehmann hodgesLehmann, Cliffs cliffs, MedianRatio medianRatio) {

  /**
   * @param u the candidate's U ({@code #(c > b) + ½·#(c = b)})
   * @param p two-sided, exact or normal ({@code method})
   * @param pAdjusted {@code p} adjusted across the compared steps
   */
  public record MannWhitney(double u, Double p, Double pAdjusted, String method) {}

  /** Welch's t on the pooled tasks; null where undefined (fewer than two values, no variance). */
  public record Welch(Double t, Double df, Double p) {}

  /** @param d the two-sample Kolmogorov–Smirnov statistic */
  public record Ks(double d, Double p, String method) {}

  /**
   * @param shiftS the Hodges–Lehmann shift, candidate minus baseline
   * @param ci95S its 95 % interval ({@code method}: over all pairs, or a sample)
   */
  public record HodgesLehmann(double shiftS, Range ci95S, String method) {}

  public record Cliffs(double delta, String magnitude) {}

  /**
   * @param ratio median(candidate)/median(baseline); null when the baseline's median is 0
   * @param ci95 its bootstrap 95 % interval
   */
  public record MedianRatio(Double ratio, Range ci95, String method) {}

  /** The tests of a step where a side has no successful task: Fisher's alone. */
  public static TaskTests errorsOnly(double fisherErrorsP) {
    return new TaskTests(null, null, null, fisherErrorsP, null, null, null);
  }

  /** Whether the tests on latencies exist (both sides have successful tasks). */
  public boolean onLatencies() {
    return mannWhitney != null;
  }

  /** A copy with the Mann–Whitney p adjusted across the steps. */
  TaskTests withPAdjusted(Double adjusted) {
    return mannWhitney == null ? this : new TaskTests(new MannWhitney(mannWhitney.u(), mannWhitney.p(), adjusted,
        mannWhitney.method()), welch, ks, fisherErrorsP, hodgesLehmann, cliffs, medianRatio);
  }
}
