package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.JsonText;
import dev.benchlake.analysis.report.Range;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.Json;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * report.json: the {@link ComparisonReport} with units in the names (per step, {@code confounders}
 * is the table-maintenance check: a list of {@code {"kind", "detail"}}, see
 * {@link dev.benchlake.analysis.confounders.TableHealthConfounders}), numbers as JSON numbers and
 * undefined values as {@code null} (every key is always present). Key order is fixed, and so is
 * the rounding, decimal and half-even: seconds to 10 decimals (0.1 ns), p-values to 6 significant
 * digits, other statistics to 10, throughputs to 6; U is exact. Numbers below 10⁻⁶ use an
 * exponent ({@code 1.2E-43}), which JSON allows. The same report gives the same bytes on every
 * machine.
 */
public final class CompareJson {
  private static final MathContext P_VALUE = new MathContext(6, RoundingMode.HALF_EVEN);
  private static final MathContext STATISTIC = new MathContext(10, RoundingMode.HALF_EVEN);
  private static final int SECONDS_DECIMALS = 10;

  private CompareJson() {}

  /** The JSON text, indented by two spaces, {@code \n} line ends, ending with a newline. */
  public static String write(ComparisonReport report) {
    return JsonText.pretty(tree(report));
  }

  /** The report as a JSON tree (report.json's content; the HTML report embeds it). */
  public static ObjectNode tree(ComparisonReport report) {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("format_version", ComparisonReport.FORMAT_VERSION);
    selection(root.putObject("baseline"), report.baseline());
    selection(root.putObject("candidate"), report.candidate());
    root.set("alpha", statistic(report.alpha()));
    root.set("margin", statistic(report.margin()));
    root.put("outliers", report.outliers());
    root.put("correction", report.correction());
    root.set("threshold_s", seconds(report.thresholdS()));
    ArrayNode steps = root.putArray("steps");
    for (StepComparison step : report.steps()) {
      ObjectNode s = steps.addObject();
      s.put("step", step.step());
      group(s.putObject("baseline"), step.baseline());
      group(s.putObject("candidate"), step.candidate());
      s.put("verdict", Format.verdict(step.verdict()));
      s.put("explanation", step.explanation());
      effect(s.putObject("run_level"), step.runLevel().median());
      ObjectNode families = s.putObject("run_level_families");
      effect(families.putObject("p99"), step.runLevel().p99());
      effect(families.putObject("throughput"), step.runLevel().throughput());
      runs(s.putObject("runs"), step.runLevel());
      tests(s.putObject("within_run_tests"), step.tests());
      plot(s.putObject("plot"), step.plot());
      s.set("confounders", Confounder.json(step.confounders()));
    }
    ArrayNode skipped = root.putArray("skipped_steps");
    report.skippedSteps().forEach(skipped::add);
    ArrayNode replicates = root.putArray("replicates");
    report.replicates().forEach(replicates::add);
    ArrayNode methods = root.putArray("methods");
    report.methods().forEach(methods::add);
    return root;
  }


  private static void selection(ObjectNode node, ComparisonReport.Selection selection) {
    node.put("selector", selection.selector());
    ArrayNode runs = node.putArray("runs");
    selection.runs().forEach(runs::add);
  }

  private static void group(ObjectNode g, GroupStatistics s) {
    g.put("runs", s.runs());
    g.put("tasks", s.tasks());
    g.put("ok", s.ok());
    g.put("errors", s.errors());
    ObjectNode codes = g.putObject("errors_by_code");
    for (Map.Entry<String, Long> e : s.errorsByCode().entrySet()) {
      codes.put(e.getKey(), e.getValue());
    }
    g.set("min_s", seconds(s.minS()));
    g.set("p50_s", seconds(s.p50S()));
    g.set("p90_s", seconds(s.p90S()));
    g.set("p95_s", seconds(s.p95S()));
    g.set("p99_s", seconds(s.p99S()));
    g.set("p999_s", seconds(s.p999S()));
    g.set("max_s", seconds(s.maxS()));
    g.set("mean_s", seconds(s.meanS()));
    g.set("stddev_s", seconds(s.stddevS()));
    if (s.underThreshold() == null) {
      g.putNull("under_threshold");
    } else {
      g.put("under_threshold", s.underThreshold());
    }
    g.put("outliers_removed", s.outliersRemoved());
    g.set("error_rate", statistic(s.errorRate()));
    g.set("unfiltered_p99_s", seconds(s.unfilteredP99S()));
    g.set("unfiltered_max_s", seconds(s.unfilteredMaxS()));
  }

  private static void tests(ObjectNode t, Tests s) {
    t.set("mann_whitney_u", s.mannWhitneyU() == null ? null : DecimalNode.valueOf(decimal(new BigDecimal(s.mannWhitneyU()))));
    t.set("mann_whitney_p", pValue(s.mannWhitneyP()));
    t.set("welch_t", statistic(s.welchT()));
    t.set("welch_df", statistic(s.welchDf()));
    t.set("welch_p", pValue(s.welchP()));
    t.set("ks_d", statistic(s.ksD()));
    t.set("ks_p", pValue(s.ksP()));
    t.set("fisher_errors_p", pValue(s.fisherErrorsP()));
    t.set("hl_shift_s", seconds(s.hlShiftS()));
    t.set("hl_ci95_s", range(t, s.hlCi95S(), true));
    t.set("cliffs_delta", statistic(s.cliffsDelta()));
    t.put("cliffs_magnitude", s.cliffsMagnitude());
    t.set("median_ratio", statistic(s.medianRatio()));
    t.set("median_ratio_ci95", range(t, s.medianRatioCi95(), false));
    t.set("p_adjusted", pValue(s.pAdjusted()));
    t.put("mann_whitney_method", s.mannWhitneyMethod());
    t.put("ks_method", s.ksMethod());
    t.put("hl_method", s.hlMethod());
    t.put("median_ratio_method", s.medianRatioMethod());
  }

  /** One family's θ: the keys of issue 13, then what the sentences rest on. */
  private static void effect(ObjectNode r, RunLevelEffect e) {
    r.put("metric", e.metric());
    r.set("ratio", statistic(e.ratio()));
    r.set("ci95", range(r, e.ci95(), false));
    r.set("ci90", range(r, e.ci90(), false));
    r.set("p", pValue(e.p()));
    r.set("p_adjusted", pValue(e.pAdjusted()));
    r.set("between_run_sd_log", statistic(e.betweenRunSdLog()));
    r.set("within_run_se_log", statistic(e.withinRunSeLog()));
    integer(r, "runs_needed", e.runsNeeded());
    r.set("ci_decision", range(r, e.ciDecision(), false));
    r.set("ci_equivalence", range(r, e.ciEquivalence(), false));
    r.put("verdict", Format.verdict(e.verdict()));
    r.set("p_equivalence_adjusted", pValue(e.pEquivalenceAdjusted()));
    r.put("real_but_negligible", e.realButNegligible());
    r.put("beyond_margin", e.beyondMargin());
    r.set("two_stage_bootstrap_ci95", e.bootstrapCi95() == null ? null : range(r, e.bootstrapCi95(), false));
    r.put("unavailable", e.unavailable());
  }

  private static void runs(ObjectNode r, RunLevel s) {
    ArrayNode baseIds = r.putArray("baseline_run_ids");
    s.baselineRunIds().forEach(baseIds::add);
    ArrayNode candIds = r.putArray("candidate_run_ids");
    s.candidateRunIds().forEach(candIds::add);
    list(r.putArray("baseline_medians_s"), s.baselineMediansS(), true);
    list(r.putArray("candidate_medians_s"), s.candidateMediansS(), true);
    list(r.putArray("baseline_p99_s"), s.baselineP99S(), true);
    list(r.putArray("candidate_p99_s"), s.candidateP99S(), true);
    ArrayNode baseThroughput = r.putArray("baseline_throughput_per_s");
    s.baselineThroughputPerS().forEach(v -> baseThroughput.add(rounded(v, P_VALUE)));
    ArrayNode candThroughput = r.putArray("candidate_throughput_per_s");
    s.candidateThroughputPerS().forEach(v -> candThroughput.add(rounded(v, P_VALUE)));
    list(r.putArray("baseline_error_rates"), s.baselineErrorRates(), false);
    list(r.putArray("candidate_error_rates"), s.candidateErrorRates(), false);
    ObjectNode errors = r.putObject("errors");
    RunErrors e = s.errors();
    errors.put("method", "welch_t_on_per_run_error_rates");
    errors.set("baseline_mean_rate", statistic(e.baselineMeanRate()));
    errors.set("candidate_mean_rate", statistic(e.candidateMeanRate()));
    errors.set("difference", statistic(e.difference()));
    errors.set("ci95", range(errors, e.ci95(), false));
    errors.set("p", pValue(e.p()));
    r.put("variance", s.variance());
  }

  private static void integer(ObjectNode node, String key, Integer value) {
    if (value == null) {
      node.putNull(key);
    } else {
      node.put(key, value);
    }
  }

  private static void plot(ObjectNode p, Plot s) {
    ArrayNode probabilities = p.putArray("ecdf_p");
    s.ecdfP().forEach(v -> probabilities.add(DecimalNode.valueOf(decimal(BigDecimal.valueOf(v)))));
    list(p.putArray("baseline_ecdf_s"), s.baselineEcdfS(), true);
    list(p.putArray("candidate_ecdf_s"), s.candidateEcdfS(), true);
    list(p.putArray("histogram_edges_s"), s.histogramEdgesS(), true);
    ArrayNode base = p.putArray("baseline_histogram");
    s.baselineHistogram().forEach(base::add);
    ArrayNode cand = p.putArray("candidate_histogram");
    s.candidateHistogram().forEach(cand::add);
  }

  private static ArrayNode range(ObjectNode owner, Range range, boolean inSeconds) {
    ArrayNode pair = owner.arrayNode();
    if (range == null) {
      return null;
    }
    pair.add(inSeconds ? seconds(range.low()) : statistic(range.low()));
    pair.add(inSeconds ? seconds(range.high()) : statistic(range.high()));
    return pair;
  }

  private static void list(ArrayNode into, List<Double> values, boolean inSeconds) {
    values.forEach(v -> into.add(v == null ? null : inSeconds ? seconds(v) : statistic(v)));
  }

  private static DecimalNode seconds(Double value) {
    return value == null ? null : DecimalNode.valueOf(decimal(new BigDecimal(value).setScale(SECONDS_DECIMALS, RoundingMode.HALF_EVEN)));
  }

  private static DecimalNode pValue(Double value) {
    return rounded(value, P_VALUE);
  }

  private static DecimalNode statistic(Double value) {
    return rounded(value, STATISTIC);
  }

  private static DecimalNode rounded(Double value, MathContext context) {
    return JsonText.rounded(value, context);
  }

  private static BigDecimal decimal(BigDecimal value) {
    return JsonText.decimal(value);
  }
}
