package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Range;
import java.util.List;
import java.util.Map;

/**
 * The result of {@code benchlake trend}: per step and version the metric, its ratio to the base
 * version with its interval and verdict, per group the geometric mean of those ratios with its
 * interval, and the changes ({@code faster} / {@code slower}) between consecutive versions. Maps are keyed by version, in {@link #versions} order, and hold every
 * version (null where undefined).
 *
 * @param higherIsBetter whether a ratio above 1 is an improvement (throughput) or a regression
 *     (latency)
 * @param runs the runs of each version
 * @param alpha significance level of the calls and flags
 * @param changePointAlpha significance level of each change point
 * @param messages what could not be computed and why, one sentence each
 * @param methods how the figures were computed, one line each
 * @param confounders the table-maintenance confounders of the steps and of the flagged changes
 */
public record TrendReport(String by, String base, String metric, String unit, boolean higherIsBetter, String where,
    List<String> versions, List<StepTrend> steps, List<GroupTrend> groups, List<Flag> flags,
    Map<String, List<String>> runs, double alpha, double margin, String correction, double changePointAlpha,
    List<String> messages, List<String> methods, TrendConfounders confounders) {

  /** This report with the confounder check's results and its method line. */
  public TrendReport withConfounders(TrendConfounders checked, String method) {
    List<String> withMethod = new java.util.ArrayList<>(methods);
    withMethod.add(method);
    return new TrendReport(by, base, metric, unit, higherIsBetter, where, versions, steps, groups, flags, runs, alpha,
        margin, correction, changePointAlpha, messages, withMethod, checked);
  }

  /**
   * One step across versions.
   *
   * @param values the geometric mean of the per-run metric over the version's runs
   * @param relative {@code values[v] / values[base]}
   * @param ci95 95 % interval of {@code relative[v]} (log scale, Welch), with two runs or more on
   *     both sides
   * @param spread how much the version's repeats disagree: max/min − 1 over its runs (two or more);
   *     descriptive only
   * @param runs runs with a value
   * @param noisy whether, for some version, the 95 % interval of the relative is wider than the
   *     margin: its half-width on the log scale exceeds ln(1 + margin)
   * @param verdict the call against the base: {@code faster}, {@code slower}, {@code equivalent} or
   *     {@code inconclusive} ({@link dev.benchlake.analysis.stats.RatioDecisions}); null at the
   *     base and where there is no relative
   * @param runsNeeded for an inconclusive call with an interval, the runs per version that 80 %
   *     power would need (to detect a change of the margin or show equivalence within it)
   * @param versusPrevious the call against the previous version, in the same four words; null for
   *     the first version and where either version has no figure
   * @param changePoints where the step's level shifts along the versions ({@link ChangePoints}), in
   *     order; empty when it does not
   */
  public record StepTrend(String step, String group, Map<String, Double> values, Map<String, Double> relative,
      Map<String, Range> ci95, Map<String, Double> spread, Map<String, Integer> runs, boolean noisy,
      Map<String, String> verdict, Map<String, Integer> runsNeeded, Map<String, String> versusPrevious,
      List<ChangePoint> changePoints) {}

  /**
   * A shift of one step's level, found by E-divisive means on the logs of its per-run figures.
   *
   * @param at the first version (or date) of the new level
   * @param before the level of the segment before: the geometric mean of its runs' figures
   * @param after the level of the segment from {@code at} to the next change point or the end
   * @param ratio {@code after / before}
   * @param p the permutation p-value of the split
   */
  public record ChangePoint(String at, double before, double after, double ratio, double p) {}

  /**
   * @param geomean the geometric mean over the group's steps of their (positive) relatives
   * @param ci95 95 % interval of the geometric mean, from per-run group figures (see
   *     {@link TrendAnalysis})
   * @param steps how many steps each geometric mean covers
   */
  public record GroupTrend(String group, Map<String, Double> geomean, Map<String, Range> ci95,
      Map<String, Integer> steps) {}

  /**
   * A change of one step from a version to the next: a {@code faster} or {@code slower} call.
   *
   * @param change {@code values[to] / values[from]}
   * @param kind {@code regression} or {@code improvement}, by the metric's direction
   * @param verdict {@code faster} or {@code slower}
   * @param beyondMargin whether the whole (1 − α) interval lies beyond the margin (the change is at
   *     least the margin); else its size is still uncertain
   */
  public record Flag(String step, String from, String to, double change, Range ci95, double p, double pAdjusted,
      String kind, String verdict, boolean beyondMargin) {}
}
