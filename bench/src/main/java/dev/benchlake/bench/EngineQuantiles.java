package dev.benchlake.bench;

import dev.benchlake.analysis.engine.RunGrouping;
import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.engine.WarehouseTasks;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.warehouse.Warehouse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Exact quantiles per run the way {@code benchlake compare} computes them: the engine's input
 * from the warehouse ({@link WarehouseTasks}), sorted on the cluster ({@link SortedLatencies}),
 * then the values at each quantile's two ranks read in one job. What a compare pays for its
 * quantiles, minus the statistics that use them.
 */
final class EngineQuantiles {
  private EngineQuantiles() {}

  /** Per run id, the quantile at each probability (numpy's {@code linear}) of {@code step}, as compare reads every step. */
  static Map<String, double[]> of(Warehouse warehouse, List<String> runIds, String step, double... probabilities) {
    // Split in halves, as a compare's two sides split its runs.
    int half = (runIds.size() + 1) / 2;
    try (SortedLatencies sorted = WarehouseTasks.sort(warehouse, List.of(),
        RunGrouping.twoGroups(runIds.subList(0, half), runIds.subList(half, runIds.size())), 0, Long.MIN_VALUE)) {
      StepQuery query = new StepQuery();
      for (int r = 0; r < runIds.size(); r++) {
        long n = sorted.layout(step).runN(r);
        for (double p : probabilities) {
          LinearQuantile.Position at = LinearQuantile.position(n, p);
          query.runRanks(r, at.lowerRank(), at.upperRank());
        }
      }
      StepAnswers answers = sorted.query(Map.of(step, query)).get(step);
      Map<String, double[]> quantiles = new TreeMap<>();
      for (int r = 0; r < runIds.size(); r++) {
        long n = sorted.layout(step).runN(r);
        double[] q = new double[probabilities.length];
        for (int i = 0; i < q.length; i++) {
          LinearQuantile.Position at = LinearQuantile.position(n, probabilities[i]);
          q[i] = at.interpolate(answers.runValue(r, at.lowerRank()), answers.runValue(r, at.upperRank()));
        }
        quantiles.put(runIds.get(r), q);
      }
      return quantiles;
    }
  }
}
