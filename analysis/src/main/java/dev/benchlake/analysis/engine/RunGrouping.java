package dev.benchlake.analysis.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The runs whose tasks the engine sorts, and how they pool: a run's index is its position in
 * {@code runIds}; {@code groupOf[index]} is its group, 0 or 1. The engine keeps per-run figures
 * for every run, and pooled figures (group quantiles, moments, the Kolmogorov–Smirnov and
 * Mann–Whitney statistics) per group: a comparison's two sides are the two groups
 * ({@link #twoGroups}); runs read one by one, as a trend reads them, are {@link #oneGroup}.
 */
public record RunGrouping(List<String> runIds, int[] groupOf) {
  public RunGrouping {
    runIds = List.copyOf(runIds);
    groupOf = groupOf.clone();
    if (runIds.size() != groupOf.length) {
      throw new IllegalArgumentException(runIds.size() + " run ids but " + groupOf.length + " run groups");
    }
    if (Arrays.stream(groupOf).anyMatch(g -> g != 0 && g != 1)) {
      throw new IllegalArgumentException("a run's group is 0 or 1");
    }
  }

  /** {@code first}'s runs in group 0, then {@code second}'s in group 1. */
  public static RunGrouping twoGroups(List<String> first, List<String> second) {
    List<String> ids = new ArrayList<>(first);
    ids.addAll(second);
    int[] groups = new int[ids.size()];
    Arrays.fill(groups, first.size(), groups.length, 1);
    return new RunGrouping(ids, groups);
  }

  /** Every run in one group (group 1 is empty): for per-run figures, which are all a trend reads. */
  public static RunGrouping oneGroup(List<String> runIds) {
    return new RunGrouping(runIds, new int[runIds.size()]);
  }

  public int runs() {
    return groupOf.length;
  }

  @Override
  public int[] groupOf() {
    return groupOf.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RunGrouping g && runIds.equals(g.runIds) && Arrays.equals(groupOf, g.groupOf);
  }

  @Override
  public int hashCode() {
    return 31 * runIds.hashCode() + Arrays.hashCode(groupOf);
  }

  @Override
  public String toString() {
    return "RunGrouping" + runIds + Arrays.toString(groupOf);
  }
}
