package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.RunGrouping;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.spark.sql.Row;

/**
 * The runs of the baseline and of the candidate, each sorted by id, and the server start each run
 * recorded. A run's index (the engine's) is its position in {@link #runIds()}: the baseline's
 * first.
 *
 * @param serverStarts {@code run_id → server_start} of the runs that recorded one
 * @param pairing how the runs pair ({@link Pairing#choose}: a duet's rounds, {@code --pair-by}, or none)
 */
record RunGroups(Sides<List<String>> runs, Map<String, String> serverStarts, Pairing pairing) {
  static RunGroups select(KernelWarehouse tables, CompareRequest request) {
    // The runs table is small: read on the driver with Delta Kernel, once, and both groups selected
    // from the rows (the same conditions as a Spark read: RunSelector.filter). A Spark read of it
    // first rebuilt the table's Delta snapshot in four Spark jobs, a third of a small compare.
    List<Row> rows = tables.runs();
    Sides<List<String>> runs = request.selectors().mapWithSide((side, selector) -> runIds(tables.root(), rows, selector,
        side.label()));
    List<String> both = runs.baseline().stream().filter(runs.candidate()::contains).toList();
    if (!both.isEmpty()) {
      throw new BadInputException("run" + (both.size() > 1 ? "s " : " ") + String.join(", ", both)
          + " match both the baseline selector '" + request.selectors().baseline() + "' and the candidate selector '"
          + request.selectors().candidate() + "': make the selectors exclusive");
    }
    TasksOnBothSides.require(rows, runs, request);
    return new RunGroups(runs, serverStarts(rows), Pairing.choose(pairingLabels(rows, runs, request.pairBy()),
        request.pairBy()));
  }

  /** Each side's runs with the labels a pairing reads ({@link Pairing#labelsRead}), those they carry. */
  private static Sides<Map<String, Map<String, String>>> pairingLabels(List<Row> rows, Sides<List<String>> runs,
      List<String> pairBy) {
    Map<String, Row> byId = new HashMap<>();
    rows.forEach(row -> byId.put(row.getAs(WarehouseSchema.RUN_ID), row));
    List<String> read = Pairing.labelsRead(pairBy);
    return runs.map(ids -> {
      Map<String, Map<String, String>> labels = new LinkedHashMap<>();
      for (String id : ids) {
        Map<String, String> values = new HashMap<>();
        for (String label : read) {
          String value = RunSelector.valueOf(byId.get(id), label);
          if (value != null) {
            values.put(label, value);
          }
        }
        labels.put(id, values);
      }
      return labels;
    });
  }

  /** {@code run_id → server_start} of the runs that recorded one (null: not recorded, or a warehouse older than it). */
  private static Map<String, String> serverStarts(List<Row> rows) {
    Map<String, String> starts = new TreeMap<>();
    for (Row run : rows) {
      String start = run.getAs(WarehouseSchema.SERVER_START);
      if (start != null) {
        starts.put(run.getAs(WarehouseSchema.RUN_ID), start);
      }
    }
    return starts;
  }

  private static List<String> runIds(String root, List<Row> rows, String selector, String role) {
    List<String> ids = RunSelector.parse(selector).filter(rows).stream()
        .map(run -> run.<String>getAs(WarehouseSchema.RUN_ID)).toList();
    if (ids.isEmpty()) {
      throw new BadInputException("the " + role + " selector '" + selector + "' matches no run in " + root
          + " (see 'benchlake runs --warehouse " + root + "')");
    }
    return ids.stream().sorted().toList();
  }

  /** The engine's runs: the baseline's in group 0, the candidate's in group 1. */
  RunGrouping grouping() {
    return RunGrouping.twoGroups(runs.baseline(), runs.candidate());
  }

  List<String> runIds() {
    return grouping().runIds();
  }

  Side sideOf(int runIndex) {
    return runIndex < runs.baseline().size() ? Side.BASELINE : Side.CANDIDATE;
  }

  String runId(int runIndex) {
    return runIds().get(runIndex);
  }

  /** The run indexes of {@code side}, in id order. */
  int[] runsOf(Side side) {
    int from = side == Side.BASELINE ? 0 : runs.baseline().size();
    return IntStream.range(from, from + runs.get(side).size()).toArray();
  }
}
