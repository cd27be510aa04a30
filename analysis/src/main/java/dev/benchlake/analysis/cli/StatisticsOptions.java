package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.core.cli.BadInputException;
import picocli.CommandLine.Option;

/**
 * The statistics options of {@code compare} and {@code trend}, defined once: the significance
 * level, the practical-equivalence margin and the correction across the tests of one report.
 * Defaults come from {@link CompareRequest}.
 */
public final class StatisticsOptions {
  @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.05",
      description = "Significance level (default: ${DEFAULT-VALUE}): faster/slower need the 1-alpha interval to"
          + " exclude 1, equivalent needs the 1-2alpha interval inside the margin band.")
  double alpha = CompareRequest.DEFAULT_ALPHA;

  @Option(names = "--margin", paramLabel = "M", defaultValue = "5%",
      description = "Practical-equivalence margin M: changes within [1/(1+M), 1+M] are negligible "
          + "(default: 5%%; written 5%% or 0.05).")
  String margin = "5%";

  @Option(names = "--correction", paramLabel = "METHOD", defaultValue = "holm",
      description = "Adjustment across the steps (or step and version tests): ${COMPLETION-CANDIDATES}"
          + " (default: ${DEFAULT-VALUE}).")
  Correction correction = Correction.HOLM;

  /** {@code --alpha}, which must lie in (0, 1). */
  public double alpha() {
    // Below 0.5, so that the 1 - 2alpha interval of the equivalence test exists.
    if (!(alpha > 0 && alpha < 0.5)) {
      throw new BadInputException("--alpha must be between 0 and 0.5 (exclusive), not " + alpha);
    }
    return alpha;
  }

  /** {@code --margin} as a fraction: {@code 5%} or {@code 0.05}, in (0, 1): a zero band admits no equivalence. */
  public double margin() {
    String t = margin.trim();
    try {
      double value = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100 : Double.parseDouble(t);
      if (value > 0 && value < 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadInputException("--margin '" + margin + "' is not a fraction in (0, 1) or a percentage, e.g. 5% or 0.05");
  }

  public Correction correction() {
    return correction;
  }
}
