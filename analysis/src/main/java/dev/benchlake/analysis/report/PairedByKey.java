package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.PairedLogRatio;
import java.util.Map;

/**
 * The paired analysis: each run is matched with the other side's run of the same key
 * ({@link RunPairs}), and θ is the geometric mean of the per-pair ratios with the one-sample t
 * interval of their logs ({@link PairedLogRatio}). The runs a missing partner leaves alone are
 * dropped; {@link #pairs} says which pairs were used and which runs were dropped, and why.
 */
public final class PairedByKey implements EffectMethod {
  private final Map<String, String> keyByRun;

  /** @param keyByRun every run's pairing key ({@link PairKeys#of}) */
  public PairedByKey(Map<String, String> keyByRun) {
    this.keyByRun = Map.copyOf(keyByRun);
  }

  /** As a report names the analysis: {@code paired}. */
  @Override
  public String name() {
    return "paired";
  }

  /**
   * The pairs these figures make, and the runs left without a partner.
   *
   * @throws dev.benchlake.core.cli.BadInputException when two runs of one side share a key
   */
  public RunPairs pairs(Sides<? extends Map<String, Double>> figuresByRun) {
    return RunPairs.match(figuresByRun, keyByRun);
  }

  /**
   * θ from the complete pairs.
   *
   * @throws IllegalArgumentException with fewer than two complete pairs (check {@link RunPairs#size}
   *     first, and report the step as undecidable with the reason)
   */
  @Override
  public PairedLogRatio estimate(Sides<? extends Map<String, Double>> figuresByRun) {
    Sides<double[]> figures = pairs(figuresByRun).figures();
    return PairedLogRatio.of(figures.baseline(), figures.candidate());
  }
}
