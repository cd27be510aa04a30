package dev.benchlake.analysis.compare;

import static org.apache.spark.sql.functions.col;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;

/**
 * The runs of the baseline and of the candidate, each sorted by id. A run's index is its position
 * in {@link #runIds()}: the baseline's first.
 */
record RunGroups(List<String> baselineRuns, List<String> candidateRuns, java.util.Map<String, String> serverStarts) {
  /**
   * The runs table's column naming the server start a run measured (absent from warehouses written
   * before it existed, null in a run that did not record it).
   */
  static final String SERVER_START = "server_start";
  static final int BASELINE = 0;
  static final int CANDIDATE = 1;

  static RunGroups select(Warehouse warehouse, CompareRequest request) {
    // The runs table is small: read it once, select both groups from the copy (without the
    // columns no selector may name).
    Dataset<Row> runs = warehouse.runs().drop("source_files", "metadata_json");
    Dataset<Row> local = warehouse.spark().createDataFrame(runs.collectAsList(), runs.schema());
    List<String> baseline = runIds(warehouse, local, request.baseline(), "baseline");
    List<String> candidate = runIds(warehouse, local, request.candidate(), "candidate");
    List<String> both = baseline.stream().filter(candidate::contains).toList();
    if (!both.isEmpty()) {
      throw new BadInputException("run" + (both.size() > 1 ? "s " : " ") + String.join(", ", both)
          + " match both the baseline selector '" + request.baseline() + "' and the candidate selector '"
          + request.candidate() + "': make the selectors exclusive");
    }
    return new RunGroups(baseline, candidate, serverStarts(local));
  }

  /** {@code run_id → server_start} of the runs that recorded one; empty without the column. */
  private static java.util.Map<String, String> serverStarts(Dataset<Row> runs) {
    java.util.Map<String, String> starts = new java.util.TreeMap<>();
    if (!java.util.Arrays.asList(runs.columns()).contains(SERVER_START)) {
      return starts;
    }
    for (Row row : runs.select(col(WarehouseSchema.RUN_ID), col(SERVER_START).cast("string")).collectAsList()) {
      if (!row.isNullAt(1)) {
        starts.put(row.getString(0), row.getString(1));
      }
    }
    return starts;
  }

  private static List<String> runIds(Warehouse warehouse, Dataset<Row> runs, String selector, String role) {
    List<String> ids = RunSelector.parse(selector).apply(runs)
        .select(col(WarehouseSchema.RUN_ID)).as(Encoders.STRING()).collectAsList();
    if (ids.isEmpty()) {
      throw new BadInputException("the " + role + " selector '" + selector + "' matches no run in " + warehouse.root()
          + " (see 'benchlake runs --warehouse " + warehouse.root() + "')");
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
