package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.RunCounts;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The task counts of one step, per run, and their totals per group. */
final class StepCounts {
  private final Map<Integer, RunCounts> byRun = new TreeMap<>();
  private final RunGroups groups;

  private StepCounts(RunGroups groups) {
    this.groups = groups;
  }

  /** Per step, from the engine's counts. */
  static Map<String, StepCounts> of(List<RunCounts> counts, RunGroups groups) {
    Map<String, StepCounts> steps = new TreeMap<>();
    for (RunCounts c : counts) {
      steps.computeIfAbsent(c.step(), s -> new StepCounts(groups)).byRun.put(c.run(), c);
    }
    return steps;
  }

  /** The counts of run {@code run}, or null when it has no task in this step. */
  RunCounts run(int run) {
    return byRun.get(run);
  }

  /** Runs of the group with tasks in this step. */
  int runs(int group) {
    return (int) byRun.keySet().stream().filter(r -> groups.groupOf(r) == group).count();
  }

  long tasks(int group) {
    return byRun.values().stream().filter(c -> groups.groupOf(c.run()) == group).mapToLong(RunCounts::tasks).sum();
  }

  long ok(int group) {
    return byRun.values().stream().filter(c -> groups.groupOf(c.run()) == group).mapToLong(RunCounts::ok).sum();
  }

  /** Failures per code, most frequent first, then by code. */
  Map<String, Long> errorsByCode(int group) {
    Map<String, Long> totals = new TreeMap<>();
    byRun.values().stream().filter(c -> groups.groupOf(c.run()) == group)
        .forEach(c -> c.errorsByCode().forEach((code, n) -> totals.merge(code, n, Long::sum)));
    Map<String, Long> ordered = new LinkedHashMap<>();
    totals.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> ordered.put(e.getKey(), e.getValue()));
    return ordered;
  }
}
