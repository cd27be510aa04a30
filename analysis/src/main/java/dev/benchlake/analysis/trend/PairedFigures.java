package dev.benchlake.analysis.trend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * One step's per-run figures with the moment each pair of runs shared taken out: what the change
 * points of a paired trend run on (issue 47). The runs that pair against the base by a key (a duet's
 * {@code round}, and {@code pair} in a study of several majors; the labels of {@code --pair-by})
 * ran at one moment and share that moment's swing of the machine. On the logs, each figure is
 * modelled as
 * <pre>
 *   ln x_i = μ_{version(i)} + β_{key(i)} + e_i
 * </pre>
 * a level per version and a term per key, fitted by least squares (the version terms from the
 * normal equations with the key terms eliminated, the base's level fixed), so keys that lack a
 * version (a step that dropped out of later rounds, a run that failed) are no problem. Each run's
 * adjusted log is {@code ln x_i} less its key's term as the key's <em>other</em> runs estimate it,
 * {@code Σ_{j≠i} (ln x_j − μ̂_j) / (n_k − 1)}, plus one constant that keeps the base's geometric
 * mean, so levels stay on the metric's scale. In a duet of several majors (a key is one pair: the
 * base's run and the major's) a major's adjusted figure is thus its ratio to its partner times the
 * base's geometric mean, and the geometric mean of a version's adjusted runs over the base's is the
 * least-squares paired relative of its calls (the geometric mean of its per-pair ratios).
 *
 * <p>Why the other runs: the plain residual {@code ln x_i − β̂_k} takes part of the run's own noise
 * out with the swing (half of it in a pair of two), so the repeats of a version look tighter than
 * the noise its level carries, and the change points' permutation test, which takes the repeats'
 * spread as the yardstick, finds shifts that are not there: 59 of 300 series of a six-major duet
 * with no change had one at α = 0.01. Left out, the run's noise stays whole: 12 of 1,500 (0.8 %),
 * and 7 of 1,500 (0.5 %) for rounds of six versions with missing cells ({@code --pair-by round}).
 *
 * <p>Why the key, not a round: it is the unit the calls pair by, and in a duet of several majors
 * the pairs of a round run one after another (the order drawn by the seed), so the pair, not the
 * round, is what ran at one moment; where the key is the round ({@code --pair-by round}, a duet of
 * two majors) the key term is the round's swing.
 *
 * <p>Left out: runs whose key no run of another version shares with a figure (they have no other
 * run to estimate their key's term), and versions whose runs are not tied to the base through
 * shared keys (their level cannot be told from their keys' swing).
 */
final class PairedFigures {
  private PairedFigures() {}

  /**
   * @param byVersion the adjusted figures by version, each by run id (only the versions with some)
   * @param leftOut the versions with figures whose runs could not be adjusted, in order
   */
  record Adjusted(Map<String, Map<String, Double>> byVersion, List<String> leftOut) {}

  /** A run in the fit: its version's index, its key's index, the log of its figure. */
  private record Point(String runId, int version, int key, double log) {}

  /**
   * @param byVersion the step's positive figures by version, each by run id
   * @param keyOfRun the pairing key of each run that pairs with a run of another version; runs absent
   *     are left out
   * @param versions in order, the base among them
   */
  static Adjusted of(Map<String, ? extends Map<String, Double>> byVersion, Map<String, String> keyOfRun,
      List<String> versions, String base) {
    Map<String, List<Point>> byKey = new LinkedHashMap<>();
    Map<String, Integer> keyIndex = new HashMap<>();
    for (int v = 0; v < versions.size(); v++) {
      Map<String, Double> runs = byVersion.get(versions.get(v));
      if (runs == null) {
        continue;
      }
      for (Map.Entry<String, Double> run : new TreeMap<>(runs).entrySet()) {
        String key = keyOfRun.get(run.getKey());
        if (key != null && run.getValue() > 0) {
          int k = keyIndex.computeIfAbsent(key, x -> keyIndex.size());
          byKey.computeIfAbsent(key, x -> new ArrayList<>()).add(new Point(run.getKey(), v, k,
              Math.log(run.getValue())));
        }
      }
    }
    // A key with one version only tells nothing of the levels, and has no other run to estimate its term.
    List<List<Point>> keys = byKey.values().stream()
        .filter(points -> points.stream().map(Point::version).distinct().count() >= 2).toList();
    boolean[] tied = tiedToBase(keys, versions.size(), versions.indexOf(base));
    List<List<Point>> fitted = keys.stream().filter(points -> tied[points.get(0).version()]).toList();
    double[] levels = levels(fitted, tied, versions.indexOf(base));
    // Each run less its key's term as the key's other runs estimate it: Σ_{j≠i} (ln x_j − μ_j) / (n_k − 1).
    Map<Point, Double> adjustedLog = new HashMap<>();
    for (List<Point> points : fitted) {
      double sum = points.stream().mapToDouble(p -> p.log() - levels[p.version()]).sum();
      for (Point p : points) {
        adjustedLog.put(p, p.log() - (sum - (p.log() - levels[p.version()])) / (points.size() - 1));
      }
    }
    List<Point> all = fitted.stream().flatMap(List::stream).toList();
    int b = versions.indexOf(base);
    // The base's adjusted runs keep the geometric mean of its raw ones.
    double shift = all.stream().filter(p -> p.version() == b).mapToDouble(p -> p.log() - adjustedLog.get(p))
        .average().orElse(0);
    Map<String, Map<String, Double>> adjusted = new LinkedHashMap<>();
    for (int v = 0; v < versions.size(); v++) {
      for (Point p : all) {
        if (p.version() == v) {
          adjusted.computeIfAbsent(versions.get(v), x -> new TreeMap<>()).put(p.runId(),
              Math.exp(adjustedLog.get(p) + shift));
        }
      }
    }
    List<String> leftOut = new ArrayList<>();
    for (String v : versions) {
      Map<String, Double> runs = byVersion.get(v);
      if (runs != null && !runs.isEmpty() && !adjusted.containsKey(v)) {
        leftOut.add(v);
      }
    }
    return new Adjusted(adjusted, List.copyOf(leftOut));
  }

  /** Which versions shared keys with the base, directly or through other versions. */
  private static boolean[] tiedToBase(List<List<Point>> keys, int versions, int base) {
    boolean[] tied = new boolean[versions];
    if (base < 0) {
      return tied;
    }
    tied[base] = true;
    boolean grew = true;
    while (grew) {
      grew = false;
      for (List<Point> points : keys) {
        if (points.stream().anyMatch(p -> tied[p.version()])) {
          for (Point p : points) {
            grew |= !tied[p.version()];
            tied[p.version()] = true;
          }
        }
      }
    }
    return tied;
  }

  /**
   * The least-squares levels μ (the base's 0) of the versions tied to the base, from the normal
   * equations with the key terms eliminated: for each version v other than the base,
   * {@code Σ_w C_vw μ_w = q_v}, {@code C_vw = n_v·[v = w] − Σ_k n_vk·n_wk / n_k},
   * {@code q_v = Σ_{i∈v} y_i − Σ_k n_vk·ȳ_k}.
   */
  private static double[] levels(List<List<Point>> keys, boolean[] tied, int base) {
    double[] levels = new double[tied.length];
    List<Integer> unknown = new ArrayList<>();
    for (int v = 0; v < tied.length; v++) {
      if (tied[v] && v != base) {
        unknown.add(v);
      }
    }
    if (unknown.isEmpty()) {
      return levels;
    }
    int[] row = new int[tied.length];
    java.util.Arrays.fill(row, -1);
    for (int i = 0; i < unknown.size(); i++) {
      row[unknown.get(i)] = i;
    }
    double[][] c = new double[unknown.size()][unknown.size()];
    double[] q = new double[unknown.size()];
    for (List<Point> points : keys) {
      double n = points.size();
      double mean = points.stream().mapToDouble(Point::log).average().orElseThrow();
      for (Point p : points) {
        int i = row[p.version()];
        if (i < 0) {
          continue;
        }
        c[i][i] += 1;
        q[i] += p.log() - mean;
        for (Point o : points) {
          int j = row[o.version()];
          if (j >= 0) {
            c[i][j] -= 1 / n;
          }
        }
      }
    }
    RealVector mu = new LUDecomposition(new Array2DRowRealMatrix(c, false)).getSolver()
        .solve(new ArrayRealVector(q, false));
    for (int i = 0; i < unknown.size(); i++) {
      levels[unknown.get(i)] = mu.getEntry(i);
    }
    return levels;
  }
}
