package dev.benchlake.analysis.engine;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the statistics need from one step's sorted latencies: values at ranks (of a group or of a
 * run), the Kolmogorov–Smirnov statistic, and every value of small groups. Ranks are 0-based in
 * ascending order. Built up by the caller, answered by {@link SortedLatencies#query} in one job.
 */
public final class StepQuery {
  final TreeSet<Long>[] groupRanks;
  final Map<Integer, TreeSet<Long>> runRanks = new TreeMap<>();
  boolean ks;
  final boolean[] extract = new boolean[2];

  @SuppressWarnings("unchecked")
  public StepQuery() {
    groupRanks = new TreeSet[] {new TreeSet<Long>(), new TreeSet<Long>()};
  }

  /** Asks for the values at these ranks of group {@code g} (0 baseline, 1 candidate). */
  public StepQuery groupRanks(int group, long... ranks) {
    Arrays.stream(ranks).forEach(groupRanks[group]::add);
    return this;
  }

  /** Asks for the values at these ranks of run {@code run}. */
  public StepQuery runRanks(int run, long... ranks) {
    TreeSet<Long> set = runRanks.computeIfAbsent(run, r -> new TreeSet<>());
    Arrays.stream(ranks).forEach(set::add);
    return this;
  }

  /** Asks for {@code D·n_b·n_c} of the two-sample Kolmogorov–Smirnov test. */
  public StepQuery ks() {
    ks = true;
    return this;
  }

  /** Asks for every value of group {@code g}, sorted (use for small groups only). */
  public StepQuery extract(int group) {
    extract[group] = true;
    return this;
  }
}
