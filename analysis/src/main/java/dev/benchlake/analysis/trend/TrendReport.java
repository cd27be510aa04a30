package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Range;
import java.util.List;
import java.util.Map;

/**
 * The result of {@code benchlake trend}: per step and version the metric and its ratio to the
 * base version, per group the geometric mean of those ratios, and the significant changes between
 * consecutive versions. Maps are keyed by version, in {@link #versions} order, and hold every
 * version (null where undefined).
 *
 * @param higherIsBetter whether a ratio above 1 is an improvement (throughput) or a regression
 *     (latency)
 * @param runs the runs of each version
 * @param messages what could not be computed and why, one sentence each
 * @param methods how the figures were computed, one line each
 */
public record TrendReport(String by, String base, String metric, String unit, boolean higherIsBetter, String where,
    List<String> versions, List<StepTrend> steps, List<GroupTrend> groups, List<Flag> flags,
    Map<String, List<String>> runs, double alpha, double margin, String correction, List<String> messages,
    List<String> methods) {

  /**
   * One step across versions.
   *
   * @param values the geometric mean of the per-run metric over the version's runs
   * @param relative {@code values[v] / values[base]}
   * @param ci95 95 % interval of {@code relative[v]} (log scale, Welch), with two runs or more on
   *     both sides
   * @param spread how much the version's repeats disagree: max/min − 1 over its runs (two or more)
   * @param runs runs with a value
   * @param noisy whether, for some version, the repeats (of it or of the base) disagree by more
   *     than the change and more than the margin
   */
  public record StepTrend(String step, String group, Map<String, Double> values, Map<String, Double> relative,
      Map<String, Range> ci95, Map<String, Double> spread, Map<String, Integer> runs, boolean noisy) {}

  /**
   * @param geomean the geometric mean over the group's steps of their (positive) relatives
   * @param steps how many steps each geometric mean covers
   */
  public record GroupTrend(String group, Map<String, Double> geomean, Map<String, Integer> steps) {}

  /**
   * A significant change of one step from a version to the next.
   *
   * @param change {@code values[to] / values[from]}
   * @param kind {@code regression} or {@code improvement}, by the metric's direction
   */
  public record Flag(String step, String from, String to, double change, Range ci95, double p, double pAdjusted,
      String kind) {}
}
