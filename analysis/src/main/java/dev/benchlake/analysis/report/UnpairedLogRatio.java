package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.LogRatio;
import dev.benchlake.analysis.stats.RatioEffect;
import java.util.Map;

/** {@link EffectMethod#UNPAIRED}: the runs of each side are independent replicates ({@link LogRatio}). */
final class UnpairedLogRatio implements EffectMethod {
  @Override
  public String name() {
    return "unpaired";
  }

  @Override
  public RatioEffect estimate(Sides<? extends Map<String, Double>> figuresByRun) {
    Sides<double[]> figures = figuresByRun.map(byRun -> byRun.values().stream().mapToDouble(Double::doubleValue).toArray());
    return LogRatio.of(figures.baseline(), figures.candidate());
  }
}
