package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.stats.Verdict;
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
 * @param replicates what the runs' server starts say of their independence, one sentence per
 *     group that deserves one ("these runs are not independent replicates", "not recorded")
 */
public record ComparisonReport(Selection baseline, Selection candidate, double alpha, double margin,
    String outliers, String correction, Double thresholdS, List<StepComparison> steps, List<String> skippedSteps,
    List<String> methods, List<String> replicates) {
  /** report.json's {@code format_version}: 2 since the run-level verdicts (issue 13). */
  public static final int FORMAT_VERSION = 2;

  /** The runs a selector chose. */
  public record Selection(String selector, List<String> runs) {}

  /** Whether any step is significantly slower (its per-run median θ's interval lies above 1). */
  public boolean hasRegression() {
    return steps.stream().anyMatch(s -> s.verdict() == Verdict.SLOWER);
  }

  /** Whether any step is slower or inconclusive: no evidence that it did not regress. */
  public boolean hasRegressionOrInconclusive() {
    return steps.stream().anyMatch(s -> s.verdict() == Verdict.SLOWER || s.verdict() == Verdict.INCONCLUSIVE);
  }

  /** Whether any step is not shown equivalent within the margin (faster counts too). */
  public boolean hasNonEquivalent() {
    return steps.stream().anyMatch(s -> s.verdict() != Verdict.EQUIVALENT);
  }
}
