package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.compare.StepFigures.UnfilteredTail;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.confounders.TableHealthReader;
import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.engine.WarehouseTasks;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.ResourceFigures;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.report.ScopeRun;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.report.Uncorrected;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.ResourceMetric;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code benchlake compare} as an API: {@code Compare.run(warehouse, request)} selects the two
 * sides' runs, sorts their latencies on Spark ({@link SortedLatencies}), applies the outlier
 * policy, computes every figure of every step present on both sides ({@link StepPlan} →
 * {@link StepFigures}) and decides ({@link Verdicts}). The result is the whole report; writing it
 * is {@code CompareFiles}' job.
 */
public final class Compare {
  private static final Logger LOG = LoggerFactory.getLogger(Compare.class);

  private Compare() {}

  /**
   * What a compare checks of its runs before it reads a task (a command: before Spark starts): a
   * warehouse there, each selector matching a run, no run in both groups, runs with tasks on both
   * sides ({@link TasksOnBothSides}).
   *
   * @throws BadInputException saying which
   */
  public static void checkSelection(KernelWarehouse tables, CompareRequest request) {
    tables.requireExisting();
    RunGroups.select(tables, request);
  }

  /** On the warehouse as it is now (a report that names no version: tests, benchmarks). */
  public static ComparisonReport run(Warehouse warehouse, CompareRequest request) {
    return run(warehouse, KernelWarehouse.of(warehouse), request, TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
  }

  /**
   * @param tables the warehouse's small tables and task files as this compare reads them, one
   *     {@code KernelWarehouse.of(warehouse)} for the whole command: each table is read at one commit,
   *     and the report's provenance ({@code Provenance.of(tables, …)}) names the runs table's version
   *     this compare read, even when an ingest lands while it runs
   * @param deadFractionThreshold the table-maintenance check's threshold ({@link TableHealthConfounders})
   */
  public static ComparisonReport run(Warehouse warehouse, KernelWarehouse tables, CompareRequest request,
      double deadFractionThreshold) {
    // From the runs table's log (Kernel): Delta's Spark reader would build the table's DeltaLog for it.
    tables.requireExisting();
    RunGroups groups = RunGroups.select(tables, request);
    LOG.info("comparing {} baseline run(s) ({}) with {} candidate run(s) ({})", groups.runs().baseline().size(),
        request.selectors().baseline(), groups.runs().candidate().size(), request.selectors().candidate());
    long thresholdNs = request.thresholdNs() == null ? Long.MIN_VALUE : request.thresholdNs();
    List<StepFigures> figures = new ArrayList<>();
    List<String> skipped;
    long started = System.nanoTime();
    try (SortedLatencies all = WarehouseTasks.sort(warehouse, tables, request.steps(), groups.grouping(),
        request.tuning().partitions(), thresholdNs)) {
      LOG.info("sorted the latencies of {} step(s) on {} partitions in {} s", all.steps().size(), all.partitions(),
          seconds(started));
      Map<String, StepCounts> counts = StepCounts.of(all.counts(), groups);
      skipped = counts.keySet().stream().filter(s -> !counts.get(s).inBoth()).toList();
      List<String> steps = stepsToCompare(counts, request);
      SortedLatencies analysed = all;
      try {
        Map<String, Sides<Long>> removed = new HashMap<>();
        Map<String, Sides<UnfilteredTail>> unfiltered = new HashMap<>();
        if (!(request.outliers() instanceof OutlierPolicy.None)) {
          unfiltered = unfilteredTails(all, steps);
          long outliersStarted = System.nanoTime();
          analysed = all.keep(Outliers.keepRanges(all, steps, request.outliers(), groups.runIds().size()));
          LOG.info("applied outlier policy {} in {} s", request.outliers().describe(), seconds(outliersStarted));
          for (String step : steps) {
            SortedLatencies kept = analysed;
            removed.put(step, Sides.by(side -> n(all, step, side) - n(kept, step, side)));
          }
        }
        Map<String, StepPlan> plans = new LinkedHashMap<>();
        Map<String, StepQuery> queries = new TreeMap<>();
        for (String step : steps) {
          StepPlan plan = StepPlan.of(step, analysed.layout(step), groups, request);
          plans.put(step, plan);
          queries.put(step, plan.query());
        }
        long queryStarted = System.nanoTime();
        Map<String, StepAnswers> answers = analysed.query(queries);
        long figuresStarted = System.nanoTime();
        for (StepPlan plan : plans.values()) {
          figures.add(StepFigures.of(plan, answers.get(plan.step()), counts.get(plan.step()),
              removed.getOrDefault(plan.step(), Sides.of(0L, 0L)), unfiltered.get(plan.step())));
        }
        LOG.info("read the ranks in {} s, computed the statistics in {} s", seconds(queryStarted),
            seconds(figuresStarted));
      } finally {
        if (analysed != all) {
          analysed.close();
        }
      }
    }
    TableHealthConfounders confounders = new TableHealthConfounders(TableHealthReader.read(tables, groups.runIds()),
        deadFractionThreshold);
    Map<String, List<String>> sides = new LinkedHashMap<>();
    for (Side side : Side.values()) {
      sides.put(side.label(), groups.runs().get(side));
    }
    List<ScopeRun> runs = ScopeRun.of(tables.runs(), sides);
    Map<String, JsonNode> manifests = new HashMap<>();
    runs.forEach(r -> manifests.put(r.runId(), r.manifest()));
    ComparisonReport report = report(request, groups, figures, skipped, confounders);
    return withResources(report, ResourceFigures.read(tables, new HashSet<>(groups.runIds())), manifests,
        groups.pairing()).withScope(Scope.of(runs, sides));
  }

  /**
   * The report with each step's per-operation resource figures ({@link ResourceFigures}), paired as
   * its verdict is, and the sentence of each step called faster or slower; a report none of whose
   * runs has any (earlier loadgens, other tools) as it was, its methods too.
   *
   * @param rows {@link ResourceFigures#read}'s rows of the selected runs
   * @param manifests the runs' manifests by run id (the reasons of what was not measured)
   */
  static ComparisonReport withResources(ComparisonReport report,
      Map<String, Map<ResourceMetric, Map<String, Double>>> rows, Map<String, JsonNode> manifests, Pairing pairing) {
    String candidate = ComparisonTitle.of(report).candidate();
    List<StepComparison> steps = new ArrayList<>();
    boolean any = false;
    for (StepComparison s : report.steps()) {
      ResourceFigures figures = ResourceFigures.forStep(s.step(), rows.get(s.step()), s.runLevel().runIds(), manifests,
          pairing);
      any |= figures != null;
      steps.add(figures == null ? s : s.withResources(figures, candidate));
    }
    return any ? report.withSteps(steps).withMethod(ResourceFigures.METHOD) : report;
  }

  /**
   * The report from every step's figures: pure, the steps decided together ({@link Verdicts}),
   * checked for table maintenance, and described.
   *
   * @param skipped the steps with tasks on one side only
   */
  static ComparisonReport report(CompareRequest request, RunGroups groups, List<StepFigures> figures,
      List<String> skipped, TableHealthConfounders confounders) {
    List<StepComparison> compared = Verdicts.finish(figures, request.settings(), groups.pairing(), confounders);
    List<String> methods = new ArrayList<>(Methods.describe(request, groups.pairing()));
    methods.add(confounders.method());
    // The calls are the median family's: the steps it decided are the tests made.
    int tests = Uncorrected.tests(compared.stream().map(s -> s.runLevel().median().decision()).toList());
    return new ComparisonReport(request.selectors().zip(groups.runs(), ComparisonReport.Selection::new),
        request.settings(), request.outliers().describe(),
        request.thresholdNs() == null ? null : request.thresholdNs() / 1e9, groups.pairing().design(), compared,
        skipped, methods,
        Replicates.describe(groups), Uncorrected.warnings(request.settings(), tests, "steps"), null, null, null, null);
  }

  /** Per step and side the {p99, max} of every successful task, before an outlier policy. */
  private static Map<String, Sides<UnfilteredTail>> unfilteredTails(SortedLatencies all, List<String> steps) {
    Map<String, StepQuery> queries = new TreeMap<>();
    for (String step : steps) {
      StepQuery query = new StepQuery();
      for (Side side : Side.values()) {
        long n = n(all, step, side);
        if (n > 0) {
          LinearQuantile.Position at = LinearQuantile.position(n, 0.99);
          query.groupRanks(side.index(), at.lowerRank(), at.upperRank(), n - 1);
        }
      }
      queries.put(step, query);
    }
    Map<String, StepAnswers> answers = all.query(queries);
    Map<String, Sides<UnfilteredTail>> tails = new HashMap<>();
    for (String step : steps) {
      StepAnswers a = answers.get(step);
      tails.put(step, Sides.by(side -> {
        long n = n(all, step, side);
        if (n == 0) {
          return new UnfilteredTail(null, null);
        }
        LinearQuantile.Position at = LinearQuantile.position(n, 0.99);
        return new UnfilteredTail(at.interpolate(a.groupValue(side.index(), at.lowerRank()),
            a.groupValue(side.index(), at.upperRank())) / 1e9, a.groupValue(side.index(), n - 1) / 1e9);
      }));
    }
    return tails;
  }

  private static String seconds(long startedNanos) {
    return String.format(Locale.ROOT, "%.2f", (System.nanoTime() - startedNanos) / 1e9);
  }

  private static long n(SortedLatencies sorted, String step, Side side) {
    StepLayout layout = sorted.layout(step);
    return layout == null ? 0 : layout.n(side.index());
  }

  private static List<String> stepsToCompare(Map<String, StepCounts> counts, CompareRequest request) {
    for (String step : request.steps()) {
      StepCounts c = counts.get(step);
      if (c == null || !c.inBoth()) {
        String where = c == null ? "neither group"
            : c.tasks(Side.BASELINE) > 0 ? "the baseline only" : "the candidate only";
        throw new BadInputException("step '" + step + "' has tasks in " + where + "; steps in both: "
            + String.join(", ", common(counts)));
      }
    }
    List<String> steps = request.steps().isEmpty() ? common(counts) : new ArrayList<>(new TreeSet<>(request.steps()));
    if (steps.isEmpty()) {
      throw new BadInputException("no step has tasks in both groups (the baseline's steps: "
          + stepsOf(counts, Side.BASELINE) + "; the candidate's: " + stepsOf(counts, Side.CANDIDATE)
          + "): steps are compared by name; check the selectors with 'benchlake runs'");
    }
    return steps;
  }

  private static String stepsOf(Map<String, StepCounts> counts, Side side) {
    List<String> steps = counts.entrySet().stream().filter(e -> e.getValue().tasks(side) > 0)
        .map(Map.Entry::getKey).toList();
    return steps.isEmpty() ? "none" : String.join(", ", steps);
  }

  private static List<String> common(Map<String, StepCounts> counts) {
    return counts.entrySet().stream().filter(e -> e.getValue().inBoth()).map(Map.Entry::getKey).toList();
  }
}
