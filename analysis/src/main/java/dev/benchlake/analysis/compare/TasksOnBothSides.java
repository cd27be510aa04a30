package dev.benchlake.analysis.compare;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.WarehouseSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;

/**
 * Compare's figures are per-task latencies, so each side needs runs with tasks. A side whose runs
 * have none (sysbench and pgbench summaries, mytools trees, pgbench aggregate logs: their figures
 * are in {@code step_metrics}) is refused from the runs table alone, before a task is read (a
 * command: before Spark starts), saying which side, which formats, and what reads summaries
 * instead: {@code trend}. Without it the user learnt after Spark's start that "no step has tasks in
 * both groups" and was sent to check selectors that were right.
 */
final class TasksOnBothSides {
  private static final String TASKS_ACCEPTED = "tasks_accepted";
  private static final String STEP_METRICS_ROWS = "step_metrics_rows";
  private static final String SOURCE_FORMAT = "source_format";

  private TasksOnBothSides() {}

  /**
   * @param rows the runs table's rows
   * @param runs each side's run ids
   * @throws BadInputException when a side has no run with a task
   */
  static void require(List<Row> rows, Sides<List<String>> runs, CompareRequest request) {
    List<String> without = new ArrayList<>();
    boolean summaries = false;
    for (Side which : Side.values()) {
      Group side = new Group(which.label(), request.selectors().get(which), rowsOf(rows, runs.get(which)));
      if (!side.runs().isEmpty() && side.runs().stream().noneMatch(TasksOnBothSides::hasTasks)) {
        without.add(side.describe());
        summaries |= side.runs().stream().anyMatch(run -> count(run, STEP_METRICS_ROWS) > 0);
      }
    }
    if (without.isEmpty()) {
      return;
    }
    throw new BadInputException(String.join("; ", without) + ": compare needs per-task latencies on both sides"
        + (summaries ? "; for summaries use 'benchlake trend'" + trendExample(request) : "")
        + ", or select runs with tasks (see 'benchlake runs')");
  }

  private record Group(String role, String selector, List<Row> runs) {
    String describe() {
      TreeSet<String> formats = new TreeSet<>();
      boolean allSummaries = true;
      for (Row run : runs) {
        formats.add(run.getAs(SOURCE_FORMAT));
        allSummaries &= count(run, STEP_METRICS_ROWS) > 0;
      }
      return "the " + role + " runs ('" + selector + "': " + runs.size() + " run" + (runs.size() == 1 ? "" : "s")
          + ", " + String.join(", ", formats) + ") have no tasks"
          + (allSummaries ? ", only summaries (step_metrics)" : "");
    }
  }

  private static List<Row> rowsOf(List<Row> runs, List<String> ids) {
    Set<String> wanted = new HashSet<>(ids);
    return runs.stream().filter(run -> wanted.contains(run.<String>getAs(WarehouseSchema.RUN_ID))).toList();
  }

  private static boolean hasTasks(Row run) {
    return count(run, TASKS_ACCEPTED) != 0;
  }

  /** The column's count, or -1 where it holds none (never refuse a run on a count it does not have). */
  private static long count(Row run, String column) {
    Object value = run.get(run.fieldIndex(column));
    return value == null ? -1 : ((Number) value).longValue();
  }

  /**
   * The trend of the same contrast where the selectors name one key each, e.g. {@code os=linux}
   * against {@code os=windows}: {@code (e.g. --by os --base linux)}; else nothing.
   */
  private static String trendExample(CompareRequest request) {
    List<RunSelector.Term> baseline = RunSelector.parse(request.selectors().baseline()).terms();
    List<RunSelector.Term> candidate = RunSelector.parse(request.selectors().candidate()).terms();
    if (baseline.size() == 1 && candidate.size() == 1 && !baseline.get(0).negated() && !candidate.get(0).negated()
        && baseline.get(0).key().equals(candidate.get(0).key())
        && !baseline.get(0).key().equals(WarehouseSchema.RUN_ID)) {
      return " (e.g. --by " + baseline.get(0).key() + " --base " + baseline.get(0).value() + ")";
    }
    return "";
  }
}
