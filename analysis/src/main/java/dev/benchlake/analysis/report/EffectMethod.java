package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.RatioEffect;
import java.util.Map;

/**
 * How θ and its interval are estimated from the two sides' per-run figures: the one place a
 * design chooses its analysis. {@link #UNPAIRED} (two independent groups of runs, Welch's t on the
 * logs) is the method of every report today; {@link PairedByKey} (runs matched by a key, the t
 * interval of the per-pair log ratios) returns its own {@link RatioEffect}, and the decisions
 * and the reports take it as they take this one.
 */
public interface EffectMethod {
  /** Two independent groups of runs: the ratio of geometric means, Welch's t on the logs. */
  EffectMethod UNPAIRED = new UnpairedLogRatio();

  /** As a report names the analysis: {@code unpaired}. */
  String name();

  /**
   * θ of the candidate against the baseline.
   *
   * @param figuresByRun each side's figures by run id, in a fixed order, each positive and
   *     finite, at least two a side
   */
  RatioEffect estimate(Sides<? extends Map<String, Double>> figuresByRun);
}
