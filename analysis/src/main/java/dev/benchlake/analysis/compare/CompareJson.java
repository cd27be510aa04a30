package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.JsonText;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.PairsJson;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.RatioDecisions;
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
 * {@link dev.benchlake.analysis.confounders.TableHealthConfounders}; each family's {@code analysis} is
 * {@code paired} or {@code unpaired} and {@code pairs} the pairs and the dropped runs of the paired
 * analysis; the top-level {@code design} says why, {@link dev.benchlake.analysis.report.Pairing}), numbers as JSON numbers and
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
    selection(root.putObject("baseline"), report.selections().baseline());
    selection(root.putObject("candidate"), report.selections().candidate());
    root.set("alpha", statistic(report.settings().alpha()));
    root.set("margin", statistic(report.settings().margin()));
    root.put("outliers", report.outliers());
    root.put("correction", report.settings().correction().label());
    root.set("threshold_s", seconds(report.thresholdS()));
    root.put("design", report.design());
    if (report.scope() != null) {
      report.scope().json(root.putObject("scope"));
    }
    if (report.cutShort() != null) {
      report.cutShort().json(root.putObject("cut_short"));
    }
    if (report.aaControl() != null) {
      aaControl(root.putObject("controls").putObject("aa"), report.aaControl());
    }
    if (report.sequential() != null) {
      sequential(root.putObject("sequential"), report.sequential());
    }
    ArrayNode steps = root.putArray("steps");
    for (StepComparison step : report.steps()) {
      ObjectNode s = steps.addObject();
      s.put("step", step.step());
      group(s.putObject("baseline"), step.groups().baseline());
      group(s.putObject("candidate"), step.groups().candidate());
      s.put("verdict", Format.verdict(step.verdict()));
      s.put("explanation", step.explanation());
      effect(s.putObject("run_level"), step.runLevel().median(), false);
      ObjectNode families = s.putObject("run_level_families");
      effect(families.putObject("p99"), step.runLevel().p99(), true);
      effect(families.putObject("throughput"), step.runLevel().throughput(), true);
      runs(s.putObject("runs"), step.runLevel());
      tests(s.putObject("within_run_tests"), step.tests());
      plot(s.putObject("plot"), step.plot());
      s.set("confounders", Confounder.json(step.confounders()));
      if (step.resources() != null) {
        step.resources().json(s.putObject("resources"), step.resourceSentence());
      }
    }
    ArrayNode skipped = root.putArray("skipped_steps");
    report.skippedSteps().forEach(skipped::add);
    ArrayNode replicates = root.putArray("replicates");
    report.replicates().forEach(replicates::add);
    ArrayNode warnings = root.putArray("warnings");
    report.warnings().forEach(warnings::add);
    ArrayNode methods = root.putArray("methods");
    report.methods().forEach(methods::add);
    return root;
  }

  /**
   * {@code controls.aa}: the a/a control's θ, its interval and the interval its verdict rests on
   * (TOST's 1 − 2α), the verdict, and what it says of the method ({@code state}: {@code confirmed},
   * {@code too short} or {@code unreliable}; {@code reliable}: confirmed).
   */
  private static void aaControl(ObjectNode aa, AaControl control) {
    aa.put("unit", "round");
    aa.put("rounds", control.rounds());
    aa.put("measurements", control.measurements());
    aa.put("pairs", control.pairs());
    aa.put("steps", control.steps());
    aa.put("cpu_set_fitted", control.cpuSetFitted());
    aa.set("ratio", statistic(control.ratio()));
    ArrayNode ci = aa.putArray("ci");
    ci.add(statistic(control.ci().low()));
    ci.add(statistic(control.ci().high()));
    aa.set("confidence", statistic(control.confidence()));
    ArrayNode equivalence = aa.putArray("ci_equivalence");
    equivalence.add(statistic(control.equivalenceCi().low()));
    equivalence.add(statistic(control.equivalenceCi().high()));
    aa.set("equivalence_confidence", statistic(control.equivalenceConfidence()));
    aa.put("verdict", Format.verdict(control.verdict()));
    aa.set("margin", statistic(control.margin()));
    aa.put("reliable", control.reliable());
    aa.put("state", control.state().id());
    integer(aa, "rounds_needed", control.roundsNeeded());
    // Kept for readers of earlier reports, when the unit was the measurement: the measurements that
    // many rounds hold.
    integer(aa, "measurements_needed", control.roundsNeeded() == null ? null
        : (int) Math.ceil(control.roundsNeeded() * (double) control.measurements() / control.rounds()));
    aa.put("sentence", control.sentence());
  }

  /** {@code sequential}: the looks' rule and where the study stopped. */
  private static void sequential(ObjectNode node, SequentialStop stop) {
    node.put("rule", stop.rule());
    node.put("plan", stop.plan());
    node.put("stopped_after_round", stop.stoppedAfterRound());
    node.put("max_rounds", stop.maxRounds());
    node.put("every_step_decided", stop.everyStepDecided());
    if (stop.budgetAlpha() != null) {
      node.put("budget_last_look_alpha", stop.budgetAlpha());
    }
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

  private static void tests(ObjectNode t, TaskTests s) {
    TaskTests.MannWhitney u = s.mannWhitney();
    TaskTests.Welch welch = s.welch();
    TaskTests.Ks ks = s.ks();
    TaskTests.HodgesLehmann hl = s.hodgesLehmann();
    TaskTests.MedianRatio ratio = s.medianRatio();
    t.set("mann_whitney_u", u == null ? null : DecimalNode.valueOf(decimal(new BigDecimal(u.u()))));
    t.set("mann_whitney_p", u == null ? null : pValue(u.p()));
    t.set("welch_t", welch == null ? null : statistic(welch.t()));
    t.set("welch_df", welch == null ? null : statistic(welch.df()));
    t.set("welch_p", welch == null ? null : pValue(welch.p()));
    t.set("ks_d", ks == null ? null : statistic(ks.d()));
    t.set("ks_p", ks == null ? null : pValue(ks.p()));
    t.set("fisher_errors_p", pValue(s.fisherErrorsP()));
    t.set("hl_shift_s", hl == null ? null : seconds(hl.shiftS()));
    t.set("hl_ci95_s", hl == null ? null : range(t, hl.ci95S(), true));
    t.set("cliffs_delta", s.cliffs() == null ? null : statistic(s.cliffs().delta()));
    t.put("cliffs_magnitude", s.cliffs() == null ? null : s.cliffs().magnitude());
    t.set("median_ratio", ratio == null ? null : statistic(ratio.ratio()));
    t.set("median_ratio_ci95", ratio == null ? null : range(t, ratio.ci95(), false));
    t.set("p_adjusted", u == null ? null : pValue(u.pAdjusted()));
    t.put("mann_whitney_method", u == null ? null : u.method());
    t.put("ks_method", ks == null ? null : ks.method());
    t.put("hl_method", hl == null ? null : hl.method());
    t.put("median_ratio_method", ratio == null ? null : ratio.method());
  }

  /**
   * One family's θ: the keys of issue 13, then what the sentences rest on; {@code descriptive}: its
   * verdict is outside the α budget (p99, throughput), not a call.
   */
  private static void effect(ObjectNode r, RunLevelEffect e, boolean descriptive) {
    Estimate estimate = e.estimate();
    RatioDecisions.Decision decision = e.decision();
    r.put("metric", e.metric());
    r.set("ratio", statistic(estimate.ratio()));
    r.set("ci95", range(r, estimate.ci95(), false));
    r.set("ci90", range(r, estimate.ci90(), false));
    r.set("p", pValue(estimate.p()));
    r.set("p_adjusted", pValue(e.pAdjusted()));
    r.set("between_run_sd_log", statistic(estimate.betweenRunSdLog()));
    r.set("within_run_se_log", statistic(e.withinRunSeLog()));
    integer(r, "runs_needed", e.runsNeeded());
    r.set("ci_decision", range(r, estimate.ciDecision(), false));
    r.set("ci_equivalence", range(r, estimate.ciEquivalence(), false));
    r.put("verdict", Format.verdict(e.verdict()));
    r.set("p_equivalence_adjusted", pValue(e.pEquivalenceAdjusted()));
    r.put("real_but_negligible", decision != null && decision.realButNegligible());
    r.put("beyond_margin", decision != null && decision.beyondMargin());
    r.set("two_stage_bootstrap_ci95", e.bootstrapCi95() == null ? null : range(r, e.bootstrapCi95(), false));
    r.put("unavailable", e.unavailable());
    r.put("analysis", e.analysis());
    r.put("descriptive", descriptive);
    ObjectNode pairs = PairsJson.of(r, e.pairs());
    if (pairs != null) {
      // Where the pairs swapped CPU sets and the set was fitted: its effect on the ratio, else null.
      pairs.set("cpu_set_ratio", statistic(estimate.cpuSetRatio()));
    }
    r.set("pairs", pairs);
  }

  private static void runs(ObjectNode r, RunLevel s) {
    Sides<List<RunFigure>> runs = s.runs();
    for (Side side : Side.values()) {
      ArrayNode ids = r.putArray(side.label() + "_run_ids");
      runs.get(side).forEach(run -> ids.add(run.runId()));
    }
    for (Side side : Side.values()) {
      list(r.putArray(side.label() + "_medians_s"), runs.get(side).stream().map(RunFigure::medianS).toList(), true);
    }
    for (Side side : Side.values()) {
      list(r.putArray(side.label() + "_p99_s"), runs.get(side).stream().map(RunFigure::p99S).toList(), true);
    }
    for (Side side : Side.values()) {
      ArrayNode throughput = r.putArray(side.label() + "_throughput_per_s");
      runs.get(side).forEach(run -> throughput.add(rounded(run.throughputPerS(), P_VALUE)));
    }
    for (Side side : Side.values()) {
      list(r.putArray(side.label() + "_error_rates"), runs.get(side).stream().map(run -> (Double) run.errorRate()).toList(),
          false);
    }
    ObjectNode errors = r.putObject("errors");
    RunErrors e = s.errors();
    errors.put("method", "welch_t_on_per_run_error_rates");
    errors.set("baseline_mean_rate", statistic(e.meanRate().baseline()));
    errors.set("candidate_mean_rate", statistic(e.meanRate().candidate()));
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
    list(p.putArray("baseline_ecdf_s"), s.ecdfS().baseline(), true);
    list(p.putArray("candidate_ecdf_s"), s.ecdfS().candidate(), true);
    list(p.putArray("histogram_edges_s"), s.histogramEdgesS(), true);
    ArrayNode base = p.putArray("baseline_histogram");
    s.histogram().baseline().forEach(base::add);
    ArrayNode cand = p.putArray("candidate_histogram");
    s.histogram().candidate().forEach(cand::add);
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
