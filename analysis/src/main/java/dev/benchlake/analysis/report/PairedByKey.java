package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.CrossoverLogRatio;
import dev.benchlake.analysis.stats.PairedEffect;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.RatioEffect;
import java.util.Map;

/**
 * The paired analysis: each run is matched with the other side's run of the same key
 * ({@link RunPairs}), and θ is the Huber M-estimate of the per-pair log ratios with its t interval
 * ({@link dev.benchlake.analysis.stats.HuberLogRatio}: one disturbed pair cannot overturn it), or,
 * {@link #leastSquares}, the geometric mean of the per-pair ratios with the one-sample t interval
 * of their logs ({@link PairedLogRatio}). The runs a missing partner leaves alone are
 * dropped; {@link #pairs} says which pairs were used and which runs were dropped, and why.
 *
 * <p>When the pairs are a duet's that swap two CPU sets (each run's {@code cpus} label) with at
 * least two pairs each way, the set is fitted as well ({@link CrossoverLogRatio}): a set that
 * favours whichever side runs on it then neither shifts θ nor widens its interval.
 */
public final class PairedByKey implements EffectMethod {
  private final Map<String, String> keyByRun;
  private final Map<String, String> cpuSetByRun;
  private final boolean robust;

  /** @param keyByRun every run's pairing key ({@link PairKeys#of}) */
  public PairedByKey(Map<String, String> keyByRun) {
    this(keyByRun, Map.of());
  }

  /**
   * @param keyByRun every run's pairing key ({@link PairKeys#of})
   * @param cpuSetByRun a duet run's CPU set ({@code cpus} label), by run id; runs without one absent
   */
  public PairedByKey(Map<String, String> keyByRun, Map<String, String> cpuSetByRun) {
    this(keyByRun, cpuSetByRun, true);
  }

  private PairedByKey(Map<String, String> keyByRun, Map<String, String> cpuSetByRun, boolean robust) {
    this.keyByRun = Map.copyOf(keyByRun);
    this.cpuSetByRun = Map.copyOf(cpuSetByRun);
    this.robust = robust;
  }

  /**
   * The same pairs estimated by least squares ({@link PairedEffect#of}): what a version study's
   * trend keeps, whose group figures (issue 47) are the geometric means of least-squares relatives.
   */
  public PairedByKey leastSquares() {
    return new PairedByKey(keyByRun, cpuSetByRun, false);
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
    return RunPairs.match(figuresByRun, keyByRun, cpuSetByRun);
  }

  /**
   * θ from the complete pairs: with the CPU set fitted when they swap sets with at least two pairs
   * each way ({@link CrossoverLogRatio#fits}), else the one-sample t of their log ratios.
   *
   * @throws IllegalArgumentException with fewer than two complete pairs (check {@link RunPairs#size}
   *     first, and report the step as undecidable with the reason)
   */
  @Override
  public RatioEffect estimate(Sides<? extends Map<String, Double>> figuresByRun) {
    RunPairs pairs = pairs(figuresByRun);
    Sides<double[]> figures = pairs.figures();
    double[] logRatios = PairedLogRatio.logRatios(figures.baseline(), figures.candidate());
    return robust ? PairedEffect.robust(logRatios, pairs.baselineOnSetOne())
        : PairedEffect.of(logRatios, pairs.baselineOnSetOne());
  }
}
