package dev.benchlake.analysis.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Adjusted p-values for a family of tests (the steps of one comparison). NaN entries (tests that
 * could not be computed) are left NaN and are not counted in the family size {@code m}.
 *
 * <ul>
 *   <li>Holm (1979), step-down, controls the family-wise error rate:
 *       {@code p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j))}.
 *   <li>Benjamini–Hochberg (1995), step-up, controls the false discovery rate:
 *       {@code p̃_(i) = min_{j ≥ i} min(1, m/j·p_(j))}.
 * </ul>
 * Ranks {@code (i)} are in ascending order of p. These are R's {@code p.adjust(p, "holm")} and
 * {@code p.adjust(p, "BH")}.
 */
public final class MultipleComparisons {
  private MultipleComparisons() {}

  public static double[] holm(double[] p) {
    int[] order = ascending(p);
    int m = order.length;
    double[] adjusted = nanCopy(p);
    double running = 0;
    for (int i = 0; i < m; i++) {
      running = Math.max(running, Math.min(1, (m - i) * p[order[i]]));
      adjusted[order[i]] = running;
    }
    return adjusted;
  }

  public static double[] benjaminiHochberg(double[] p) {
    int[] order = ascending(p);
    int m = order.length;
    double[] adjusted = nanCopy(p);
    double running = 1;
    for (int i = m - 1; i >= 0; i--) {
      running = Math.min(running, Math.min(1, (double) m / (i + 1) * p[order[i]]));
      adjusted[order[i]] = running;
    }
    return adjusted;
  }

  /** Indexes of the non-NaN entries, by ascending p (stable). */
  private static int[] ascending(double[] p) {
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < p.length; i++) {
      if (!Double.isNaN(p[i])) {
        indexes.add(i);
      }
    }
    indexes.sort(Comparator.comparingDouble(i -> p[i]));
    return indexes.stream().mapToInt(Integer::intValue).toArray();
  }

  private static double[] nanCopy(double[] p) {
    double[] copy = new double[p.length];
    java.util.Arrays.fill(copy, Double.NaN);
    return copy;
  }
}
