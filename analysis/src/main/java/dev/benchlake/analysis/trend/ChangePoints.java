package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.stats.EDivisive;
import dev.benchlake.analysis.stats.GeometricMean;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import java.util.ArrayList;
import java.util.HashMap;
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
 *
 * <p>In a paired trend (a duet, {@code --pair-by}: {@link #onPairedFigures}) the figures are the
 * runs' with the moment each pair shared taken out ({@link PairedFigures}), and so are the levels
 * and their ratio (issue 47): the raw figures carry the swing of the machine from pair to pair,
 * which the paired calls cancel, and a change point on them could mark a swing the calls do not
 * see, or hide a shift they do.
 */
final class ChangePoints {
  /** Which figures a paired trend's change points are on, in the reports' words. */
  static final String PAIRED_FIGURES = "the runs' logs with each pair's shared moment taken out";

  private ChangePoints() {}

  /**
   * Whether a trend of this design ({@link TrendAnalysis#design}) finds its change points on the
   * paired figures: any design but {@code unpaired}.
   */
  static boolean onPairedFigures(String design) {
    return design != null && !Pairing.UNPAIRED_DESIGN.equals(design);
  }

  /**
   * @param byVersion the step's figures by version, each by run id (versions without any may be missing)
   * @return the change points, in order; empty without at least two versions of figures, with
   *     fewer than {@code 2 · minSize} runs, or when a figure is 0 (no logarithm; said in {@code messages})
   */
  static List<ChangePoint> of(String step, Map<String, ? extends Map<String, Double>> byVersion, List<String> versions,
      EDivisive method, List<String> messages) {
    return hasZero(step, byVersion, messages) ? List.of() : search(byVersion, versions, method);
  }

  /**
   * The change points of a paired trend's step, on its figures with each pair's moment taken out
   * ({@link PairedFigures}): the runs of each version's complete pairs with the base. A version
   * none of whose runs is tied to the base is left out, and too few paired figures give none; both
   * said in {@code messages}, as the raw figures are not used instead.
   *
   * @param pairs each paired version's pairs with the base ({@link dev.benchlake.analysis.report.PairedByKey#pairs})
   * @param by what the versions are values of, for messages ({@code db_major})
   */
  static List<ChangePoint> ofPaired(String step, Map<String, ? extends Map<String, Double>> byVersion,
      Map<String, RunPairs> pairs, List<String> versions, String base, String by, EDivisive method,
      List<String> messages) {
    if (hasZero(step, byVersion, messages)) {
      return List.of();
    }
    Map<String, String> keyOfRun = new HashMap<>();
    pairs.values().forEach(p -> p.pairs().forEach(pair -> {
      keyOfRun.put(pair.runIds().baseline(), pair.key());
      keyOfRun.put(pair.runIds().candidate(), pair.key());
    }));
    PairedFigures.Adjusted adjusted = PairedFigures.of(byVersion, keyOfRun, versions, base);
    boolean rawEnough = enough(byVersion, versions, method);
    if (!adjusted.leftOut().isEmpty() && rawEnough) {
      messages.add("step " + step + ": its change points leave out " + by + " " + String.join(", ", adjusted.leftOut())
          + ", whose runs share no pair with a run tied to " + base + ", so the pairs' moment cannot be taken out of"
          + " their figures.");
    }
    if (!enough(adjusted.byVersion(), versions, method)) {
      if (rawEnough) {
        int runs = adjusted.byVersion().values().stream().mapToInt(Map::size).sum();
        messages.add("step " + step + ": no change points, as its complete pairs leave " + runs + " run"
            + (runs == 1 ? "" : "s") + " at " + adjusted.byVersion().size() + " value" + (adjusted.byVersion().size() == 1
            ? "" : "s") + " of " + by + ", and the search needs two values and " + 2 * method.minSize() + " runs (the"
            + " unpaired figures, which carry the pairs' swing, are not used instead).");
      }
      return List.of();
    }
    return search(adjusted.byVersion(), versions, method);
  }

  private static boolean hasZero(String step, Map<String, ? extends Map<String, Double>> byVersion,
      List<String> messages) {
    boolean zero = byVersion.values().stream().flatMap(runs -> runs.values().stream()).anyMatch(f -> !(f > 0));
    if (zero) {
      messages.add("step " + step + ": a run has a figure of 0, which has no logarithm, so no change points.");
    }
    return zero;
  }

  /** At least two versions with figures, and {@code 2 · minSize} runs in all. */
  private static boolean enough(Map<String, ? extends Map<String, Double>> byVersion, List<String> versions,
      EDivisive method) {
    List<Map<String, Double>> present = versions.stream().map(v -> (Map<String, Double>) byVersion.get(v))
        .filter(runs -> runs != null && !runs.isEmpty()).toList();
    return present.size() >= 2 && present.stream().mapToInt(Map::size).sum() >= 2 * method.minSize();
  }

  private static List<ChangePoint> search(Map<String, ? extends Map<String, Double>> byVersion, List<String> versions,
      EDivisive method) {
    if (!enough(byVersion, versions, method)) {
      return List.of();
    }
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
        logs.add(Math.log(figure));
        figures.add(figure);
      }
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
