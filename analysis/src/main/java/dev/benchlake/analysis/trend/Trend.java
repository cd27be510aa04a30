package dev.benchlake.analysis.trend;


import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.confounders.TableHealthReader;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.engine.RunCounts;
import dev.benchlake.analysis.engine.RunGrouping;
import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.engine.WarehouseTasks;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.analysis.report.ResourceFigures;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.core.Labels;
import dev.benchlake.core.raw.ResourceMetric;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.ScopeRun;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.export.RowOrder;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code benchlake trend} as an API: {@code Trend.run(warehouse, request)} selects the runs, gives
 * each its version — the value of {@code --by}, a runs column or a label; {@code --by date} is the
 * run's label {@code date} when it has one, else the UTC calendar day of its {@code started_at}
 * ({@code yyyy-MM-dd}: the day a nightly run began, whatever the time zone of its machine) — reads
 * each run's figure per step — its own whole-run {@code step_metrics} figure where it has one
 * (loadgen's scan: rows per second), else from its tasks through the comparison's engine — and
 * hands them to {@link TrendAnalysis}.
 * Writing the report is {@link TrendFiles}' job.
 */
public final class Trend {
  private static final Logger LOG = LoggerFactory.getLogger(Trend.class);

  private Trend() {}

  /**
   * What a trend checks of its runs before it reads a figure (a command: before Spark starts): a
   * warehouse there, {@code --where} matching a run, runs with a value of {@code --by}, and
   * {@code --base} one of those values.
   *
   * @return whether the values form a series (false: names, compared against the base only; see
   *     {@link TrendReport#ordered()})
   * @throws BadInputException saying which
   */
  public static boolean checkSelection(KernelWarehouse tables, TrendRequest request) {
    Map<String, String> versionOf = new TreeMap<>();
    Map<String, Map<String, String>> labelsOf = new HashMap<>();
    Map<String, String> orderKeys = new TreeMap<>();
    Set<String> labels = new java.util.TreeSet<>();
    selectRuns(tables, request, versionOf, labelsOf, new HashSet<>(), new ArrayList<>(), orderKeys, labels);
    List<String> versions = SeriesOrder.sort(request, versionOf.values().stream().distinct().toList(), orderKeys, labels);
    TrendRequest based = TrendAnalysis.withBase(request, versions);
    TrendAnalysis.pairings(based, runsByVersion(versionOf), labelsOf);
    return !SeriesOrder.names(based.base(), based.orderBy(), versions);
  }

  private static Map<String, List<String>> runsByVersion(Map<String, String> versionOf) {
    Map<String, List<String>> runs = new TreeMap<>();
    versionOf.forEach((run, version) -> runs.computeIfAbsent(version, v -> new ArrayList<>()).add(run));
    return runs;
  }

  /** On the warehouse as it is now (a report that names no version: tests). */
  public static TrendReport run(Warehouse warehouse, TrendRequest request) {
    return run(warehouse, KernelWarehouse.of(warehouse), request, TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
  }

  /**
   * @param tables the warehouse's small tables and task files as this trend reads them, one
   *     {@code KernelWarehouse.of(warehouse)} for the whole command (see {@code Compare.run}): the runs
   *     and step_metrics are read on the driver with Delta Kernel, each at one commit, and the report's
   *     provenance names the runs table's version read
   * @param deadFractionThreshold the table-maintenance check's threshold ({@link TableHealthConfounders})
   */
  public static TrendReport run(Warehouse warehouse, KernelWarehouse tables, TrendRequest request,
      double deadFractionThreshold) {
    return analyse(warehouse, tables, request, deadFractionThreshold);
  }

  private static TrendReport analyse(Warehouse warehouse, KernelWarehouse tables, TrendRequest request,
      double deadFractionThreshold) {
    List<String> notes = new ArrayList<>();
    Map<String, String> versionOf = new TreeMap<>();
    Map<String, Map<String, String>> labelsOf = new HashMap<>();
    Set<String> withTasks = new HashSet<>();
    Map<String, String> orderKeys = new TreeMap<>();
    selectRuns(tables, request, versionOf, labelsOf, withTasks, notes, orderKeys, new java.util.TreeSet<>());
    Map<String, List<String>> runs = runsByVersion(versionOf);
    Map<String, Observation> observations = new LinkedHashMap<>();
    List<String> taskRuns = versionOf.keySet().stream().filter(withTasks::contains).toList();
    if (!taskRuns.isEmpty()) {
      fromTasks(warehouse, tables, request.metric(), taskRuns, versionOf, notes).forEach(o -> observations.put(key(o), o));
    }
    // A run's own whole-run figure of a step wins over its tasks': where a harness records one
    // beside its tasks, it is the figure as the study counts it (loadgen's scan: rows per second,
    // where its tasks are table scans).
    for (Observation o : fromStepMetrics(tables, request.metric(), versionOf, notes)) {
      observations.put(key(o), o);
    }
    if (observations.isEmpty()) {
      throw new BadInputException("no selected run has " + request.metric().name() + " for any step (from tasks, or"
          + " whole-run step_metrics '" + request.metric().stepMetric() + "')");
    }
    LOG.info("trend of {} over {} run(s), {} figure(s)", request.metric().name(), versionOf.size(), observations.size());
    TableHealthConfounders confounders = new TableHealthConfounders(
        TableHealthReader.read(tables, new ArrayList<>(versionOf.keySet())), deadFractionThreshold);
    TrendReport report = TrendAnalysis.analyse(new ArrayList<>(observations.values()), runs, orderKeys, request, notes,
        confounders, labelsOf);
    // The versions in the report's order; the runs table's rows as selectRuns read them (tables keeps them).
    Map<String, List<String>> byVersion = new LinkedHashMap<>();
    report.versions().forEach(v -> byVersion.put(v, report.runs().getOrDefault(v, List.of())));
    List<ScopeRun> scopeRuns = ScopeRun.of(tables.runs(), byVersion);
    Map<String, JsonNode> manifests = new HashMap<>();
    scopeRuns.forEach(r -> manifests.put(r.runId(), r.manifest()));
    return withResources(report.withScope(Scope.of(scopeRuns, byVersion)),
        ResourceFigures.read(tables, versionOf.keySet()), manifests,
        TrendAnalysis.pairings(request.withBase(report.base()), runs, labelsOf));
  }

  /**
   * The report with each step's per-operation resource figures at every version against the base
   * ({@link ResourceFigures}), paired as its call against the base is, and the sentence of each call
   * faster or slower; as it was when no run has any (earlier loadgens, other tools).
   *
   * @param rows {@link ResourceFigures#read}'s rows of the selected runs
   * @param manifests the runs' manifests by run id (the reasons of what was not measured)
   * @param pairings each version's pairing against the base ({@link TrendAnalysis#pairings})
   */
  static TrendReport withResources(TrendReport report, Map<String, Map<ResourceMetric, Map<String, Double>>> rows,
      Map<String, JsonNode> manifests, Map<String, Pairing> pairings) {
    Map<String, Map<String, TrendReport.Resources>> all = new LinkedHashMap<>();
    for (TrendReport.StepTrend step : report.steps()) {
      TrendReport.VersionFigure base = step.at(report.base());
      for (TrendReport.VersionFigure v : step.versions()) {
        Pairing pairing = pairings.get(v.version());
        if (v.version().equals(report.base()) || pairing == null) {
          continue;
        }
        ResourceFigures figures = ResourceFigures.forStep(step.step(), rows.get(step.step()),
            Sides.of(base.runIds(), v.runIds()), manifests, pairing);
        if (figures != null) {
          String candidate = Labels.DB_MAJOR.equals(report.by()) ? "PostgreSQL " + v.version()
              : report.by() + " " + v.version();
          all.computeIfAbsent(step.step(), k -> new LinkedHashMap<>()).put(v.version(), new TrendReport.Resources(figures,
              figures.sentence(candidate, step.step(), v.verdict(), v.relative(), v.ci95())));
        }
      }
    }
    return report.withResources(all);
  }

  private static String key(Observation o) {
    return o.runId() + '\u0000' + o.step();
  }

  /**
   * The selected runs' versions. The runs table is small: read on the driver (Kernel) and selected
   * with the conditions of a Spark read ({@link RunSelector#filter}); the version is what a selector
   * on {@code --by} would compare ({@link RunSelector#valueOf}: a column cast to text, else a label),
   * and the labels a pairing reads of each ({@link Pairing#labelsRead}), those it carries. With
   * {@code --order-by}, each version's key is the smallest of its runs' ({@link VersionOrder}).
   *
   * @param labels gets the label keys of the selected runs
   */
  private static void selectRuns(KernelWarehouse tables, TrendRequest request, Map<String, String> versionOf,
      Map<String, Map<String, String>> labelsOf, Set<String> withTasks, List<String> notes,
      Map<String, String> orderKeys, Set<String> labels) {
    List<String> pairingLabels = Pairing.labelsRead(request.pairBy());
    // From the runs table's log (Kernel), as compare: Delta's Spark reader would build its DeltaLog.
    tables.requireExisting();
    if (RunSelector.NOT_SELECTABLE.contains(request.by())) {
      throw new BadInputException("--by " + request.by() + " is not a run dimension or label");
    }
    List<Row> selected = RunSelector.parse(request.where()).filter(tables.runs());
    if (selected.isEmpty()) {
      throw new BadInputException("no run in " + tables.root() + " matches --where '" + request.where() + "'");
    }
    boolean column = Arrays.asList(Table.RUNS.schema().fieldNames()).contains(request.by());
    boolean byDate = !column && request.by().equals(TrendRequest.BY_DATE);
    List<String> without = new ArrayList<>();
    for (Row row : selected) {
      String run = row.getAs(WarehouseSchema.RUN_ID);
      String value = RunSelector.valueOf(row, request.by());
      Object startedAt = row.getAs(WarehouseSchema.STARTED_AT);
      if ((value == null || value.isBlank()) && byDate && startedAt != null) {
        value = utcDate(startedAt);
      }
      if (value == null || value.isBlank()) {
        without.add(run);
        continue;
      }
      versionOf.put(run, value.trim());
      Map<String, String> pairLabels = new HashMap<>();
      for (String label : pairingLabels) {
        String labelValue = RunSelector.valueOf(row, label);
        if (labelValue != null) {
          pairLabels.put(label, labelValue);
        }
      }
      labelsOf.put(run, pairLabels);
      labels.addAll(RunSelector.labelsOf(row).keySet());
      String key = request.orderBy() == null ? null : RunSelector.valueOf(row, request.orderBy());
      if (key != null && !key.isBlank()) {
        orderKeys.merge(value.trim(), key.trim(), (a, b) -> VersionOrder.INSTANCE.compare(a, b) <= 0 ? a : b);
      }
      if (row.<Long>getAs(WarehouseSchema.TASKS_ACCEPTED) > 0) {
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

  /**
   * The runs' whole-run figures of {@code metric} (no interval, no bucket) per step and unit: their
   * mean where a run has several. From step_metrics read on the driver (Kernel): a few rows per run,
   * which a Spark read would first rebuild the table's Delta snapshot for, in Spark jobs. In Spark's
   * order of {@code orderBy(run_id, step, unit)} (strings by code point), and averaged as Spark's
   * {@code avg} does (the sum over the rows, divided by their count).
   */
  private static List<Observation> fromStepMetrics(KernelWarehouse tables, TrendMetric metric,
      Map<String, String> versionOf, List<String> notes) {
    Map<WholeRun, double[]> sumAndCount = new TreeMap<>(WholeRun.ORDER);
    for (Row row : tables.rowsOf(Table.STEP_METRICS, versionOf.keySet())) {
      if (metric.stepMetric().equals(row.getAs(WarehouseSchema.METRIC)) && row.getAs(WarehouseSchema.INTERVAL_START_S) == null
          && row.getAs(WarehouseSchema.BUCKET) == null) {
        double[] figure = sumAndCount.computeIfAbsent(new WholeRun(row.getAs(WarehouseSchema.RUN_ID),
            row.getAs(WarehouseSchema.STEP), row.getAs(WarehouseSchema.UNIT)), k -> new double[2]);
        figure[0] += row.<Double>getAs(WarehouseSchema.VALUE);
        figure[1]++;
      }
    }
    List<Observation> observations = new ArrayList<>();
    sumAndCount.forEach((group, figure) -> {
      String run = group.runId();
      String step = group.step();
      String unit = group.unit();
      long rows = (long) figure[1];
      double value = metric.convert(figure[0] / rows, unit);
      if (Double.isNaN(value)) {
        notes.add("run " + run + ", step " + step + ": " + metric.stepMetric() + " is in '" + unit + "', which "
            + metric.name() + " (" + metric.unit() + ") cannot use; left out.");
        return;
      }
      if (rows > 1) {
        notes.add("run " + run + ", step " + step + " has " + rows + " whole-run " + metric.stepMetric()
            + " rows; their mean is used.");
      }
      observations.add(new Observation(run, versionOf.get(run), step, value));
    });
    return observations;
  }

  /** A run's whole-run rows of one step and unit. */
  private record WholeRun(String runId, String step, String unit) {
    static final java.util.Comparator<WholeRun> ORDER = java.util.Comparator
        .comparing(WholeRun::runId, RowOrder::compareCodePoints)
        .thenComparing(WholeRun::step, RowOrder::compareCodePoints)
        .thenComparing(WholeRun::unit, RowOrder::compareCodePoints);
  }

  private static List<Observation> fromTasks(Warehouse warehouse, KernelWarehouse tables, TrendMetric metric,
      List<String> runIds, Map<String, String> versionOf, List<String> notes) {
    List<Observation> observations = new ArrayList<>();
    try (SortedLatencies sorted = WarehouseTasks.sort(warehouse, tables, List.of(), RunGrouping.oneGroup(runIds), 0,
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
