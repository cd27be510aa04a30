package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.RunCounts;
import dev.benchlake.analysis.report.Side;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The task counts of one step, per run, and their totals per side. */
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

  /** Runs of the side with tasks in this step. */
  int runs(Side side) {
    return (int) of(side).count();
  }

  long tasks(Side side) {
    return of(side).mapToLong(RunCounts::tasks).sum();
  }

  long ok(Side side) {
    return of(side).mapToLong(RunCounts::ok).sum();
  }

  /** Whether both sides have tasks in this step. */
  boolean inBoth() {
    return tasks(Side.BASELINE) > 0 && tasks(Side.CANDIDATE) > 0;
  }

  /** Failures per code, most frequent first, then by code. */
  Map<String, Long> errorsByCode(Side side) {
    Map<String, Long> totals = new TreeMap<>();
    of(side).forEach(c -> c.errorsByCode().forEach((code, n) -> totals.merge(code, n, Long::sum)));
    Map<String, Long> ordered = new LinkedHashMap<>();
    totals.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> ordered.put(e.getKey(), e.getValue()));
    return ordered;
  }

  private Stream<RunCounts> of(Side side) {
    return byRun.values().stream().filter(c -> groups.sideOf(c.run()) == side);
  }
}
