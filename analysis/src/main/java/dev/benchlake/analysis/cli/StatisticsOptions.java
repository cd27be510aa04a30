package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.report.Uncorrected;
import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.Iterator;
import picocli.CommandLine.Option;

/**
 * {@code --alpha}, {@code --margin} and {@code --correction}, as every command that decides takes
 * them ({@code compare}, {@code trend}, {@code study versions}). The options hold the texts as
 * typed; {@link #settings()} parses them into {@link StatisticsSettings}, which owns their ranges,
 * defaults and messages.
 */
public final class StatisticsOptions {
  @Option(names = "--alpha", paramLabel = "A", defaultValue = StatisticsSettings.DEFAULT_ALPHA,
      description = "Significance level in (0, 0.5) (default: ${DEFAULT-VALUE}): faster/slower need the 1-alpha"
          + " interval to exclude 1, equivalent needs the 1-2alpha interval inside the margin band.")
  String alpha;

  @Option(names = "--margin", paramLabel = "M", defaultValue = StatisticsSettings.DEFAULT_MARGIN,
      description = "Practical-equivalence margin M in (0, 1): changes within [1/(1+M), 1+M] are negligible"
          + " (default: ${DEFAULT-VALUE}; written 5%% or 0.05).")
  String margin;

  @Option(names = "--correction", paramLabel = "METHOD", defaultValue = StatisticsSettings.DEFAULT_CORRECTION,
      completionCandidates = Corrections.class,
      description = "Adjustment across the steps (or step and version tests): ${COMPLETION-CANDIDATES}"
          + " (default: ${DEFAULT-VALUE}); none " + Uncorrected.PURPOSE + " only: over N steps of no change it"
          + " makes about alpha*N false calls, which the report then says.")
  String correction;

  /** The settings, checked: a bad value is one line and exit 2. */
  public StatisticsSettings settings() {
    return StatisticsSettings.parse(alpha, margin, correction);
  }

  /** The corrections' names, for the help. */
  static final class Corrections implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Correction.labels().iterator();
    }
  }
}
