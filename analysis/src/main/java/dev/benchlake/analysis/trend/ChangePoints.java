package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.stats.EDivisive;
import dev.benchlake.analysis.stats.GeometricMean;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where one step's level shifts along the ordered versions (or dates): {@link EDivisive} on the
 * logarithms of the step's per-run figures, in version order and, within a version, by run id; a
 * version's runs are one block, so a change can only fall between two versions. Each change point
 * gives {@code at} (the first version of the new level), the levels of the segments either side
 * (geometric means of their runs' figures, each segment running to the neighbouring change point
 * or the end of the series), their ratio {@code after / before} and the permutation p-value.
 *
 * <p>Why on the logs: a level shift of a throughput or latency is a ratio, and on the log scale a
 * 15 % drop is the same distance at 100 or at 100 000 queries per second. Why on the runs and not
 * on each version's mean: the repeats are what tells a shift from the noise around it.
 */
final class ChangePoints {
  private ChangePoints() {}

  /**
   * @param byVersion the step's figures by version, each by run id (versions without any may be missing)
   * @return the change points, in order; empty without at least two versions of figures, with
   *     fewer than {@code 2 · minSize} runs, or when a figure is 0 (no logarithm; said in {@code messages})
   */
  static List<ChangePoint> of(String step, Map<String, ? extends Map<String, Double>> byVersion, List<String> versions,
      EDivisive method, List<String> messages) {
    List<Double> logs = new ArrayList<>();
    List<Double> figures = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    List<String> blockVersion = new ArrayList<>();
    for (String v : versions) {
      Map<String, Double> runs = byVersion.get(v);
      if (runs == null || runs.isEmpty()) {
        continue;
      }
      starts.add(logs.size());
      blockVersion.add(v);
      for (double figure : new TreeMap<>(runs).values()) {
        if (!(figure > 0)) {
          messages.add("step " + step + ": a run has a figure of 0, which has no logarithm, so no change points.");
          return List.of();
        }
        logs.add(Math.log(figure));
        figures.add(figure);
      }
    }
    if (starts.size() < 2 || logs.size() < 2 * method.minSize()) {
      return List.of();
    }
    double[] series = logs.stream().mapToDouble(Double::doubleValue).toArray();
    List<EDivisive.ChangePoint> found = method.changePoints(series, starts.stream().mapToInt(Integer::intValue).toArray());
    List<ChangePoint> points = new ArrayList<>();
    for (int k = 0; k < found.size(); k++) {
      int from = k == 0 ? 0 : found.get(k - 1).index();
      int at = found.get(k).index();
      int to = k + 1 < found.size() ? found.get(k + 1).index() : series.length;
      double before = GeometricMean.of(slice(figures, from, at));
      double after = GeometricMean.of(slice(figures, at, to));
      points.add(new ChangePoint(blockVersion.get(starts.indexOf(at)), before, after, after / before, found.get(k).p()));
    }
    return List.copyOf(points);
  }

  private static double[] slice(List<Double> values, int from, int to) {
    return values.subList(from, to).stream().mapToDouble(Double::doubleValue).toArray();
  }
}
