package dev.benchlake.analysis.trend;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;

import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.confounders.TableHealthReader;
import dev.benchlake.analysis.engine.RunCounts;
import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.engine.WarehouseTasks;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code benchlake trend} as an API: {@code Trend.run(warehouse, request)} selects the runs, gives
 * each its version — the value of {@code --by}, a runs column or a label; {@code --by date} is the
 * run's label {@code date} when it has one, else the UTC calendar day of its {@code started_at}
 * ({@code yyyy-MM-dd}: the day a nightly run began, whatever the time zone of its machine) — reads
 * each run's figure per step — from its tasks through the comparison's engine when it has tasks,
 * else from its whole-run {@code step_metrics} — and hands them to {@link TrendAnalysis}.
 * Writing the report is {@link TrendFiles}' job.
 */
public final class Trend {
  private static final Logger LOG = LoggerFactory.getLogger(Trend.class);
  private static final String VERSION = "version";
  private static final String TASKS_ACCEPTED = "tasks_accepted";
  private static final String STARTED_AT = "started_at";

  private Trend() {}

  public static TrendReport run(Warehouse warehouse, TrendRequest request) {
    return run(warehouse, request, TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
  }

  /**
   * @param deadFractionThreshold the table-maintenance check's threshold ({@link TableHealthConfounders})
   */
  public static TrendReport run(Warehouse warehouse, TrendRequest request, double deadFractionThreshold) {
    TrendReport report = analyse(warehouse, request);
    List<String> runIds = report.runs().values().stream().flatMap(List::stream).toList();
    TableHealthConfounders rule = new TableHealthConfounders(TableHealthReader.read(warehouse, runIds),
        deadFractionThreshold);
    return report.withConfounders(TrendConfounders.check(report, rule), rule.method());
  }

  private static TrendReport analyse(Warehouse warehouse, TrendRequest request) {
    warehouse.requireExisting();
    if (RunSelector.NOT_SELECTABLE.contains(request.by())) {
      throw new BadInputException("--by " + request.by() + " is not a run dimension or label");
    }
    List<String> notes = new ArrayList<>();
    Map<String, String> versionOf = new TreeMap<>();
    Set<String> withTasks = new HashSet<>();
    selectRuns(warehouse, request, versionOf, withTasks, notes);
    Map<String, List<String>> runs = new TreeMap<>();
    versionOf.forEach((run, version) -> runs.computeIfAbsent(version, v -> new ArrayList<>()).add(run));
    Map<String, Observation> observations = new LinkedHashMap<>();
    List<String> taskRuns = versionOf.keySet().stream().filter(withTasks::contains).toList();
    if (!taskRuns.isEmpty()) {
      fromTasks(warehouse, request.metric(), taskRuns, versionOf, notes).forEach(o -> observations.put(key(o), o));
    }
    for (Observation o : fromStepMetrics(warehouse, request.metric(), versionOf, notes)) {
      observations.putIfAbsent(key(o), o);
    }
    if (observations.isEmpty()) {
      throw new BadInputException("no selected run has " + request.metric().name() + " for any step (from tasks, or"
          + " whole-run step_metrics '" + request.metric().stepMetric() + "')");
    }
    LOG.info("trend of {} over {} run(s), {} figure(s)", request.metric().name(), versionOf.size(), observations.size());
    return TrendAnalysis.analyse(new ArrayList<>(observations.values()), runs, request, notes);
  }

  private static String key(Observation o) {
    return o.runId() + '\u0000' + o.step();
  }

  private static void selectRuns(Warehouse warehouse, TrendRequest request, Map<String, String> versionOf,
      Set<String> withTasks, List<String> notes) {
    Dataset<Row> runs = warehouse.runs().drop("source_files", "metadata_json");
    Dataset<Row> selected = RunSelector.parse(request.where()).apply(runs);
    boolean column = Arrays.asList(runs.columns()).contains(request.by());
    Column version = column ? col(request.by()).cast("string") : element_at(col(WarehouseSchema.LABELS), lit(request.by()));
    List<Row> rows = selected.select(col(WarehouseSchema.RUN_ID), version.as(VERSION), col(TASKS_ACCEPTED),
        col(STARTED_AT)).collectAsList();
    if (rows.isEmpty()) {
      throw new BadInputException("no run in " + warehouse.root() + " matches --where '" + request.where() + "'");
    }
    boolean byDate = !column && request.by().equals(TrendRequest.BY_DATE);
    List<String> without = new ArrayList<>();
    for (Row row : rows) {
      String run = row.getString(0);
      String value = row.isNullAt(1) ? null : row.getString(1);
      if ((value == null || value.isBlank()) && byDate && !row.isNullAt(3)) {
        value = utcDate(row.get(3));
      }
      if (value == null || value.isBlank()) {
        without.add(run);
        continue;
      }
      versionOf.put(run, value.trim());
      if (row.getLong(2) > 0) {
        withTasks.add(run);
      }
    }
    if (versionOf.isEmpty()) {
      throw new BadInputException("no selected run has a value for --by " + request.by()
          + " (a runs column such as db_major, os, workload, a label key, or date: the day a run started)");
    }
    if (!without.isEmpty()) {
      notes.add(without.size() + " selected run(s) have no " + request.by() + " and are left out: "
          + String.join(", ", without.stream().sorted().toList()) + ".");
    }
  }

  /** {@code --by date}: the calendar day (UTC) a run started on, {@code yyyy-MM-dd}, which sorts as it reads. */
  static String utcDate(Object startedAt) {
    // A Timestamp by default, an Instant with Spark's java8API.
    java.time.Instant instant = startedAt instanceof java.sql.Timestamp t ? t.toInstant() : (java.time.Instant) startedAt;
    return instant.atZone(java.time.ZoneOffset.UTC).toLocalDate().toString();
  }

  private static List<Observation> fromStepMetrics(Warehouse warehouse, TrendMetric metric, Map<String, String> versionOf,
      List<String> notes) {
    Dataset<Row> selected = warehouse.spark().createDataFrame(versionOf.keySet().stream()
        .map(id -> org.apache.spark.sql.RowFactory.create(id)).toList(),
        new org.apache.spark.sql.types.StructType().add(WarehouseSchema.RUN_ID, org.apache.spark.sql.types.DataTypes.StringType));
    List<Row> rows = warehouse.committedOnly(Table.STEP_METRICS, selected)
        .where(col("metric").equalTo(metric.stepMetric()).and(col("interval_start_s").isNull()).and(col("bucket").isNull()))
        .groupBy(col(WarehouseSchema.RUN_ID), col(WarehouseSchema.STEP), col("unit"))
        .agg(avg(col("value")), count(lit(1)))
        .orderBy(WarehouseSchema.RUN_ID, WarehouseSchema.STEP, "unit")
        .collectAsList();
    List<Observation> observations = new ArrayList<>();
    for (Row row : rows) {
      String run = row.getString(0);
      String step = row.getString(1);
      String unit = row.getString(2);
      double value = metric.convert(row.getDouble(3), unit);
      if (Double.isNaN(value)) {
        notes.add("run " + run + ", step " + step + ": " + metric.stepMetric() + " is in '" + unit + "', which "
            + metric.name() + " (" + metric.unit() + ") cannot use; left out.");
        continue;
      }
      if (row.getLong(4) > 1) {
        notes.add("run " + run + ", step " + step + " has " + row.getLong(4) + " whole-run " + metric.stepMetric()
            + " rows; their mean is used.");
      }
      observations.add(new Observation(run, versionOf.get(run), step, value));
    }
    return observations;
  }

  private static List<Observation> fromTasks(Warehouse warehouse, TrendMetric metric, List<String> runIds,
      Map<String, String> versionOf, List<String> notes) {
    List<Observation> observations = new ArrayList<>();
    try (SortedLatencies sorted = WarehouseTasks.sort(warehouse, List.of(), runIds, new int[runIds.size()], 0,
        Long.MIN_VALUE)) {
      if (metric.kind() == TrendMetric.Kind.THROUGHPUT) {
        for (RunCounts c : sorted.counts()) {
          String run = runIds.get(c.run());
          double perS = c.throughputPerS();
          if (Double.isNaN(perS)) {
            notes.add("run " + run + ", step " + c.step() + ": fewer than two successful tasks with an end time, so no"
                + " throughput.");
          } else {
            observations.add(new Observation(run, versionOf.get(run), c.step(), perS));
          }
        }
        return observations;
      }
      Map<String, StepQuery> queries = new TreeMap<>();
      for (String step : sorted.steps()) {
        StepLayout layout = sorted.layout(step);
        if (layout == null) {
          continue;
        }
        StepQuery query = new StepQuery();
        for (int run = 0; run < runIds.size(); run++) {
          if (layout.runN(run) > 0 && metric.kind() == TrendMetric.Kind.QUANTILE) {
            LinearQuantile.Position at = LinearQuantile.position(layout.runN(run), metric.quantile());
            query.runRanks(run, at.lowerRank(), at.upperRank());
          }
        }
        queries.put(step, query);
      }
      Map<String, StepAnswers> answers = sorted.query(queries);
      for (String step : queries.keySet()) {
        StepLayout layout = sorted.layout(step);
        for (int run = 0; run < runIds.size(); run++) {
          long n = layout.runN(run);
          if (n == 0) {
            continue;
          }
          double seconds;
          if (metric.kind() == TrendMetric.Kind.MEAN) {
            seconds = layout.runMoments(run).mean() / 1e9;
          } else {
            LinearQuantile.Position at = LinearQuantile.position(n, metric.quantile());
            StepAnswers a = answers.get(step);
            seconds = at.interpolate(a.runValue(run, at.lowerRank()), a.runValue(run, at.upperRank())) / 1e9;
          }
          observations.add(new Observation(runIds.get(run), versionOf.get(runIds.get(run)), step, seconds));
        }
      }
      for (RunCounts c : sorted.counts()) {
        if (sorted.layout(c.step()) == null || sorted.layout(c.step()).runN(c.run()) == 0) {
          notes.add("run " + runIds.get(c.run()) + ", step " + c.step() + ": no successful task with a latency.");
        }
      }
    }
    return observations;
  }
}
