package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Comparison reports made from each run's median latency alone, without Spark: the pure half of
 * compare ({@link Compare#report}: the decisions, sentences, checks and methods) on step figures
 * built here. Each run's p99 is three times its median and its throughput the inverse of it; no
 * task fails, and the task-level tests are Fisher's alone. Public for app's {@code RunFileLookTest}:
 * a duet's look from its run files must decide as the comparison does.
 */
public final class FigureReports {
  private FigureReports() {}

  /** One step per entry: each side's per-run medians in seconds (NaN: no such run); two independent groups. */
  static ComparisonReport of(StatisticsSettings settings, Map<String, Sides<double[]>> mediansS) {
    return of(settings, mediansS, false);
  }

  /**
   * @param duet whether the runs are a duet's, labelled as a duet labels them ({@code design=duet},
   *     {@code round}): the i-th run of each side (ids {@code bi}, {@code ci}) ran in round i
   */
  static ComparisonReport of(StatisticsSettings settings, Map<String, Sides<double[]>> mediansS, boolean duet) {
    return of(settings, mediansS, duet, false);
  }

  /**
   * @param swapSets whether the duet's runs also carry their CPU set ({@code cpus}), the sides
   *     swapping sets {@code 0} and {@code 1} every round, the baseline on {@code 0} in round 1
   */
  public static ComparisonReport of(StatisticsSettings settings, Map<String, Sides<double[]>> mediansS,
      boolean duet, boolean swapSets) {
    Map<String, Sides<double[]>> steps = new LinkedHashMap<>(mediansS);
    int most = steps.values().stream().mapToInt(s -> Math.max(s.baseline().length, s.candidate().length)).max().orElse(0);
    Sides<List<String>> runIds = Sides.by(side -> {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < most; i++) {
        ids.add(side.label().charAt(0) + Integer.toString(i + 1));
      }
      return ids;
    });
    Pairing pairing = duet ? Pairing.choose(runIds.mapWithSide((side, ids) -> duetLabels(ids,
        swapSets ? (side == Side.BASELINE ? 0 : 1) : -1)), List.of()) : Pairing.UNPAIRED;
    RunGroups groups = new RunGroups(runIds, Map.of(), pairing);
    List<StepFigures> figures = new ArrayList<>();
    steps.forEach((step, medians) -> {
      Sides<List<RunFigure>> runs = medians.mapWithSide((side, values) -> {
        List<RunFigure> figuresOfSide = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
          if (Double.isNaN(values[i])) {
            continue; // no run of this side in that round
          }
          figuresOfSide.add(new RunFigure(runIds.get(side).get(i), values[i], 3 * values[i], 1 / values[i], 0));
        }
        return figuresOfSide;
      });
      Sides<GroupStatistics> pooled = runs.map(r -> new GroupStatistics(r.size(), 100L * r.size(), 100L * r.size(), 0,
          Map.of(), null, null, null, null, null, null, null, null, null, null, 0, 0.0, null, null));
      figures.add(new StepFigures(step, pooled, TaskTests.errorsOnly(1), runs,
          RunErrorRates.compare(runs.map(r -> r.stream().map(RunFigure::errorRate).toList())),
          new Plot(List.of(), Sides.of(List.of(), List.of()), List.of(), Sides.of(List.of(), List.of())),
          Map.of(Family.MEDIAN, new StepFigures.TailUncertainty(Double.NaN, Interval.UNBOUNDED),
              Family.P99, new StepFigures.TailUncertainty(Double.NaN, Interval.UNBOUNDED))));
    });
    CompareRequest request = CompareRequest.of("grp=b", "grp=c").withSettings(settings);
    return Compare.report(request, groups, figures, List.of(),
        new TableHealthConfounders(Map.of(), TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD));
  }

  /**
   * A duet's labels of runs {@code x1, x2, …}: round i for the i-th; with {@code firstSet} 0 or 1,
   * CPU set {@code firstSet} in round 1, swapped every round (−1: no set label).
   */
  private static Map<String, Map<String, String>> duetLabels(List<String> ids, int firstSet) {
    Map<String, Map<String, String>> labels = new LinkedHashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      Map<String, String> run = new LinkedHashMap<>(Map.of("design", "duet", "round", Integer.toString(i + 1)));
      if (firstSet >= 0) {
        run.put("cpus", Integer.toString((firstSet + i) % 2));
      }
      labels.put(ids.get(i), run);
    }
    return labels;
  }
}
