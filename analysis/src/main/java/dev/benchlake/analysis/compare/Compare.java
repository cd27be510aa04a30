package dev.benchlake.analysis.compare;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.substring_index;
import static org.apache.spark.sql.functions.unix_micros;
import static org.apache.spark.sql.functions.when;

import dev.benchlake.analysis.engine.EngineInput;
import dev.benchlake.analysis.engine.SortedLatencies;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.report.ComparisonReport;
import dev.benchlake.analysis.report.StepComparison;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.warehouse.Warehouse;
import dev.benchlake.ingest.warehouse.WarehouseSchema;
import dev.benchlake.ingest.warehouse.WarehouseSchema.Table;
import io.delta.tables.DeltaTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code benchlake compare} as an API: {@code Compare.run(warehouse, request)} selects the two
 * groups of runs, sorts their latencies on Spark ({@link SortedLatencies}), applies the outlier
 * policy, computes every figure of every step present in both groups and decides
 * ({@link Verdicts}). The result is the whole report; writing it is {@code ReportFiles}' job.
 */
public final class Compare {
  private static final Logger LOG = LoggerFactory.getLogger(Compare.class);
  private static final int ERROR_MESSAGE_CHARS = 120;

  private Compare() {}

  public static ComparisonReport run(Warehouse warehouse, CompareRequest request) {
    warehouse.requireExisting();
    RunGroups groups = RunGroups.select(warehouse, request);
    LOG.info("comparing {} baseline run(s) ({}) with {} candidate run(s) ({})", groups.baselineRuns().size(),
        request.baseline(), groups.candidateRuns().size(), request.candidate());
    Dataset<Row> input = engineInput(warehouse, groups, request.steps());
    int partitions = request.tuning().partitions();
    long thresholdNs = request.thresholdNs() == null ? Long.MIN_VALUE : request.thresholdNs();
    List<StepDraft> drafts = new ArrayList<>();
    List<String> skipped;
    long started = System.nanoTime();
    try (SortedLatencies all = SortedLatencies.sort(input, groups.runGroup(), partitions, thresholdNs)) {
      LOG.info("sorted the latencies of {} step(s) on {} partitions in {} s", all.steps().size(), all.partitions(),
          seconds(started));
      Map<String, StepCounts> counts = StepCounts.of(all.counts(), groups);
      skipped = counts.keySet().stream().filter(s -> !inBoth(counts.get(s))).toList();
      List<String> steps = stepsToCompare(counts, request);
      SortedLatencies analysed = all;
      try {
        Map<String, long[]> removed = new HashMap<>();
        if (!(request.outliers() instanceof OutlierPolicy.None)) {
          long outliersStarted = System.nanoTime();
          analysed = all.keep(Outliers.keepRanges(all, steps, request.outliers()));
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
        figures.forEach((step, f) -> drafts.add(f.draft(answers.get(step), counts.get(step),
            removed.getOrDefault(step, new long[2]))));
        LOG.info("read the ranks in {} s, computed the statistics in {} s", seconds(queryStarted), seconds(draftStarted));
      } finally {
        if (analysed != all) {
          analysed.close();
        }
      }
    }
    List<StepComparison> compared = Verdicts.finish(drafts, request);
    return new ComparisonReport(
        new ComparisonReport.Selection(request.baseline(), groups.baselineRuns()),
        new ComparisonReport.Selection(request.candidate(), groups.candidateRuns()),
        request.alpha(), request.margin(), request.outliers().describe(), request.correction().label(),
        request.thresholdNs() == null ? null : request.thresholdNs() / 1e9, compared, skipped, Methods.describe(request));
  }

  /**
   * The engine's rows: every task of the selected runs that is not warm-up, with its run's index.
   *
   * <p>Only tasks of committed runs: the selected runs come from the runs table, the commit point,
   * and the inner (broadcast) join with them keeps exactly their tasks — what
   * {@link Warehouse#committedOnly} does with a semi join — while it hands each task its run's
   * index, so that no run id string travels with each task. One hash lookup per task instead of
   * the two that {@code committedOnly} followed by the index join would cost (about a seventh of
   * a whole comparison on 20M tasks).
   */
  static Dataset<Row> engineInput(Warehouse warehouse, RunGroups groups, List<String> steps) {
    SparkSession spark = warehouse.spark();
    List<String> ids = groups.runIds();
    List<Row> indexRows = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      indexRows.add(RowFactory.create(ids.get(i), i));
    }
    Dataset<Row> index = spark.createDataFrame(indexRows, new StructType()
        .add(WarehouseSchema.RUN_ID, DataTypes.StringType, false)
        .add(EngineInput.RUN_INDEX, DataTypes.IntegerType, false));
    String path = warehouse.path(Table.TASKS);
    Dataset<Row> tasks = (DeltaTable.isDeltaTable(spark, path) ? spark.read().format("delta").load(path)
        : spark.createDataFrame(List.of(), Table.TASKS.schema())).where(not(col(WarehouseSchema.WARMUP)));
    if (!steps.isEmpty()) {
      tasks = tasks.where(col(WarehouseSchema.STEP).isin(steps.toArray()));
    }
    Column message = substring(substring_index(col("error"), "\n", 1), 1, ERROR_MESSAGE_CHARS);
    return tasks.join(broadcast(index), WarehouseSchema.RUN_ID, "inner").select(
        col(WarehouseSchema.STEP).as(EngineInput.STEP),
        col(EngineInput.RUN_INDEX),
        col(WarehouseSchema.LATENCY_NS).as(EngineInput.LATENCY_NS),
        col(WarehouseSchema.OK).as(EngineInput.OK),
        when(not(col(WarehouseSchema.OK)), coalesce(col("sqlstate"), message, lit("unknown"))).as(EngineInput.ERROR_CODE),
        when(col(WarehouseSchema.OK), unix_micros(col("end_ts"))).as(EngineInput.END_US));
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
