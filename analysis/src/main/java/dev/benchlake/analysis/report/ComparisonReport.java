package dev.benchlake.analysis.report;

import java.util.List;

/**
 * The result of {@code benchlake compare}, complete: everything report.json and report.md show,
 * and what an HTML page needs to plot, so that later tools reuse it without recomputing.
 *
 * @param margin the practical-equivalence margin as a fraction (0.05 = ±5 %)
 * @param outliers the outlier policy, e.g. {@code none}, {@code iqr:1.5}
 * @param thresholdS {@code --threshold} in seconds, or null
 * @param skippedSteps steps present in only one group (not compared)
 * @param methods how the figures were computed, one line each
 */
public record ComparisonReport(Selection baseline, Selection candidate, double alpha, double margin,
    String outliers, String correction, Double thresholdS, List<StepComparison> steps, List<String> skippedSteps,
    List<String> methods) {

  /** The runs a selector chose. */
  public record Selection(String selector, List<String> runs) {}

  /** Whether any step is a significant, non-negligible slowdown of the candidate. */
  public boolean hasRegression() {
    return steps.stream().anyMatch(s -> s.verdict() == Verdict.SLOWER);
  }
}
