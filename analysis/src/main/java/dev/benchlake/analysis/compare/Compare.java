package dev.benchlake.analysis.compare;


import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.confounders.TableHealthReader;
import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.engine.WarehouseTasks;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code benchlake compare} as an API: {@code Compare.run(warehouse, request)} selects the two
 * groups of runs, sorts their latencies on Spark ({@link SortedLatencies}), applies the outlier
 * policy, computes every figure of every step present in both groups and decides
 * ({@link Verdicts}). The result is the whole report; writing it is {@code CompareFiles}' job.
 */
public final class Compare {
  private static final Logger LOG = LoggerFactory.getLogger(Compare.class);
  
  private Compare() {}

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
    LOG.info("comparing {} baseline run(s) ({}) with {} candidate run(s) ({})", groups.baselineRuns().size(),
        request.baseline(), groups.candidateRuns().size(), request.candidate());
    int partitions = request.tuning().partitions();
    long thresholdNs = request.thresholdNs() == null ? Long.MIN_VALUE : request.thresholdNs();
    List<StepDraft> drafts = new ArrayList<>();
    List<String> skipped;
    long started = System.nanoTime();
    try (SortedLatencies all = WarehouseTasks.sort(warehouse, tables, request.steps(), groups.runIds(),
        groups.runGroup(), partitions, thresholdNs)) {
      LOG.info("sorted the latencies of {} step(s) on {} partitions in {} s", all.steps().size(), all.partitions(),
          seconds(started));
      Map<String, StepCounts> counts = StepCounts.of(all.counts(), groups);
      skipped = counts.keySet().stream().filter(s -> !inBoth(counts.get(s))).toList();
      List<String> steps = stepsToCompare(counts, request);
      SortedLatencies analysed = all;
      try {
        Map<String, long[]> removed = new HashMap<>();
        Map<String, Double[][]> unfiltered = new HashMap<>();
        if (!(request.outliers() instanceof OutlierPolicy.None)) {
          unfiltered = unfilteredTails(all, steps);
          long outliersStarted = System.nanoTime();
          analysed = all.keep(Outliers.keepRanges(all, steps, request.outliers(), groups.runIds().size()));
          LOG.info("applied outlier policy {} in {} s", request.outliers().describe(), seconds(outliersStarted));
          for (String step : steps) {
            long[] before = {n(all, step, 0), n(all, step, 1)};
            removed.put(step, new long[] {before[0] - n(analysed, step, 0), before[1] - n(analysed, step, 1)});
          }
        }
        Map<String, StepFigures> figures = new LinkedHashMap<>();
        Map<String, StepQuery> queries = new TreeMap<>();
        for (String step : steps) {
          StepFigures f = new StepFigures(step, analysed.layout(step), groups, request);
          figures.put(step, f);
          queries.put(step, f.query());
        }
        long queryStarted = System.nanoTime();
        Map<String, StepAnswers> answers = analysed.query(queries);
        long draftStarted = System.nanoTime();
        Map<String, Double[][]> tails = unfiltered;
        figures.forEach((step, f) -> drafts.add(f.draft(answers.get(step), counts.get(step),
            removed.getOrDefault(step, new long[2]), tails.get(step))));
        LOG.info("read the ranks in {} s, computed the statistics in {} s", seconds(queryStarted), seconds(draftStarted));
      } finally {
        if (analysed != all) {
          analysed.close();
        }
      }
    }
    TableHealthConfounders confounders = new TableHealthConfounders(TableHealthReader.read(tables, groups.runIds()),
        deadFractionThreshold);
    List<StepComparison> compared = Verdicts.finish(drafts, request).stream()
        .map(s -> s.withConfounders(confounders.between(s.step(), "the baseline", groups.baselineRuns(), "the candidate",
            groups.candidateRuns())))
        .toList();
    List<String> methods = new ArrayList<>(Methods.describe(request));
    methods.add(confounders.method());
    return new ComparisonReport(
        new ComparisonReport.Selection(request.baseline(), groups.baselineRuns()),
        new ComparisonReport.Selection(request.candidate(), groups.candidateRuns()),
        request.alpha(), request.margin(), request.outliers().describe(), request.correction().label(),
        request.thresholdNs() == null ? null : request.thresholdNs() / 1e9, compared, skipped, methods,
        Replicates.describe(groups));
  }

  /** Per step and group {p99, max} in seconds of every successful task, before an outlier policy. */
  private static Map<String, Double[][]> unfilteredTails(SortedLatencies all, List<String> steps) {
    Map<String, StepQuery> queries = new TreeMap<>();
    for (String step : steps) {
      StepQuery query = new StepQuery();
      for (int g = 0; g < 2 && all.layout(step) != null; g++) {
        long n = all.layout(step).n(g);
        if (n > 0) {
          LinearQuantile.Position at = LinearQuantile.position(n, 0.99);
          query.groupRanks(g, at.lowerRank(), at.upperRank(), n - 1);
        }
      }
      queries.put(step, query);
    }
    Map<String, StepAnswers> answers = all.query(queries);
    Map<String, Double[][]> tails = new HashMap<>();
    for (String step : steps) {
      Double[][] t = new Double[2][2];
      for (int g = 0; g < 2 && all.layout(step) != null; g++) {
        long n = all.layout(step).n(g);
        if (n > 0) {
          StepAnswers a = answers.get(step);
          LinearQuantile.Position at = LinearQuantile.position(n, 0.99);
          t[g][0] = at.interpolate(a.groupValue(g, at.lowerRank()), a.groupValue(g, at.upperRank())) / 1e9;
          t[g][1] = a.groupValue(g, n - 1) / 1e9;
        }
      }
      tails.put(step, t);
    }
    return tails;
  }

  private static String seconds(long startedNanos) {
    return String.format(java.util.Locale.ROOT, "%.2f", (System.nanoTime() - startedNanos) / 1e9);
  }

  private static long n(SortedLatencies sorted, String step, int group) {
    return sorted.layout(step) == null ? 0 : sorted.layout(step).n(group);
  }

  private static boolean inBoth(StepCounts counts) {
    return counts.tasks(RunGroups.BASELINE) > 0 && counts.tasks(RunGroups.CANDIDATE) > 0;
  }

  private static List<String> stepsToCompare(Map<String, StepCounts> counts, CompareRequest request) {
    for (String step : request.steps()) {
      StepCounts c = counts.get(step);
      if (c == null || !inBoth(c)) {
        String where = c == null ? "neither group"
            : c.tasks(RunGroups.BASELINE) > 0 ? "the baseline only" : "the candidate only";
        throw new BadInputException("step '" + step + "' has tasks in " + where + "; steps in both: "
            + String.join(", ", common(counts)));
      }
    }
    List<String> steps = request.steps().isEmpty() ? common(counts) : new ArrayList<>(new TreeSet<>(request.steps()));
    if (steps.isEmpty()) {
      throw new BadInputException("no step has tasks in both groups (steps: " + String.join(", ", counts.keySet())
          + "); check the selectors with 'benchlake runs'");
    }
    return steps;
  }

  private static List<String> common(Map<String, StepCounts> counts) {
    return counts.entrySet().stream().filter(e -> inBoth(e.getValue())).map(Map.Entry::getKey).toList();
  }
}
