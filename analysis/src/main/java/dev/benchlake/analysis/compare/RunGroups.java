package dev.benchlake.analysis.compare;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;

/**
 * The runs of the baseline and of the candidate, each sorted by id. A run's index is its position
 * in {@link #runIds()}: the baseline's first.
 */
record RunGroups(List<String> baselineRuns, List<String> candidateRuns, java.util.Map<String, String> serverStarts) {
  /**
   * The runs table's column naming the server start a run measured (null in a run that did not
   * record it, and in every run of a warehouse written before it existed).
   */
  static final String SERVER_START = "server_start";
  static final int BASELINE = 0;
  static final int CANDIDATE = 1;

  static RunGroups select(KernelWarehouse tables, CompareRequest request) {
    // The runs table is small: read on the driver with Delta Kernel, once, and both groups selected
    // from the rows (the same conditions as a Spark read: RunSelector.filter). A Spark read of it
    // first rebuilt the table's Delta snapshot in four Spark jobs, a third of a small compare.
    List<Row> runs = tables.runs();
    List<String> baseline = runIds(tables.root(), runs, request.baseline(), "baseline");
    List<String> candidate = runIds(tables.root(), runs, request.candidate(), "candidate");
    List<String> both = baseline.stream().filter(candidate::contains).toList();
    if (!both.isEmpty()) {
      throw new BadInputException("run" + (both.size() > 1 ? "s " : " ") + String.join(", ", both)
          + " match both the baseline selector '" + request.baseline() + "' and the candidate selector '"
          + request.candidate() + "': make the selectors exclusive");
    }
    return new RunGroups(baseline, candidate, serverStarts(runs));
  }

  /** {@code run_id → server_start} of the runs that recorded one (null: not recorded, or a warehouse older than it). */
  private static java.util.Map<String, String> serverStarts(List<Row> runs) {
    java.util.Map<String, String> starts = new java.util.TreeMap<>();
    for (Row run : runs) {
      String start = run.getAs(SERVER_START);
      if (start != null) {
        starts.put(run.getAs(WarehouseSchema.RUN_ID), start);
      }
    }
    return starts;
  }

  private static List<String> runIds(String root, List<Row> runs, String selector, String role) {
    List<String> ids = RunSelector.parse(selector).filter(runs).stream()
        .map(run -> run.<String>getAs(WarehouseSchema.RUN_ID)).toList();
    if (ids.isEmpty()) {
      throw new BadInputException("the " + role + " selector '" + selector + "' matches no run in " + root
          + " (see 'benchlake runs --warehouse " + root + "')");
    }
    return ids.stream().sorted().toList();
  }

  List<String> runIds() {
    List<String> all = new ArrayList<>(baselineRuns);
    all.addAll(candidateRuns);
    return all;
  }

  int[] runGroup() {
    int[] groups = new int[baselineRuns.size() + candidateRuns.size()];
    java.util.Arrays.fill(groups, baselineRuns.size(), groups.length, CANDIDATE);
    return groups;
  }

  int groupOf(int runIndex) {
    return runIndex < baselineRuns.size() ? BASELINE : CANDIDATE;
  }

  String runId(int runIndex) {
    return runIndex < baselineRuns.size() ? baselineRuns.get(runIndex) : candidateRuns.get(runIndex - baselineRuns.size());
  }

  /** The run indexes of group {@code g}, in id order. */
  int[] runsOf(int group) {
    int from = group == BASELINE ? 0 : baselineRuns.size();
    int count = group == BASELINE ? baselineRuns.size() : candidateRuns.size();
    int[] runs = new int[count];
    java.util.Arrays.setAll(runs, i -> from + i);
    return runs;
  }
}
