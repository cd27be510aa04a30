package dev.benchlake.analysis.trend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.JsonText;
import dev.benchlake.analysis.report.PairsJson;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.core.Json;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * trend.json: {@code {"by", "base", "metric", "unit", "higher_is_better", "where", "design", "versions", "order_by", "gaps",
 * "steps": [{"step", "group", "values", "relative", "ci95", "spread", "runs", "noisy", "verdict",
 * "runs_needed", "verdict_vs_previous", "change_points": [{"at", "before", "after", "ratio", "p"}],
 * "confounders", "analysis", "pairs", "values_ci95", "run_values"}], "groups": [{"group", "geomean", "ci95", "steps", "verdict"}],
 * "flags": [{"step", "from", "to", "kind", "verdict", "beyond_margin", "change", "ci95", "p",
 * "p_adjusted", "confounders"}], "calls_against_base": {VERSION: {"faster", "slower", "equivalent",
 * "inconclusive"}}, "runs", "alpha", "margin", "correction", "change_point_alpha", "change_point_figures",
 * "messages", "methods"}}.
 * {@code change_point_figures} is there only in a paired trend: {@code "paired"}, its change points (levels,
 * ratios) found on the runs' figures with each pair's shared moment taken out (issue 47); an unpaired
 * trend's are on the runs' figures as they are.
 * {@code order_by} (the {@code --order-by} key) is there only with one; {@code x_axis} ({@link SeriesAxis}:
 * how a series chart places each value) only for dates, timestamps or an {@code --order-by}; {@code gaps} (the days
 * between the first and the last version without a run, in order; {@code []} for none) only when
 * the versions are dates. Per step and version, {@code values_ci95} is the 95 % interval of the
 * value from its repeats (null with fewer than two) and {@code run_values} each run's figure by run
 * id ({@code {}} without runs). {@code calls_against_base} counts each version's step calls against the base
 * (the warm-up's left out), every verdict with its count, 0 included, for every version but the base.
 * {@code confounders} is a list of {@code {"kind", "detail"}} (table maintenance: {@code
 * dead_tuples}, {@code autovacuum}, {@code autoanalyze}, or {@code not_recorded}), per step and
 * version against the base (null at the base and without a figure; empty: recorded and the same
 * state) and per flagged change between its two versions. {@code design} is how the versions' runs
 * pair with the base's ({@link dev.benchlake.analysis.report.Pairing}); per step and version,
 * {@code analysis} is {@code paired} or {@code unpaired} (null at the base) and {@code pairs} the
 * pairs and dropped runs of the paired analysis ({@link dev.benchlake.analysis.report.PairsJson};
 * null otherwise). Verdicts are
 * {@code faster}, {@code slower}, {@code equivalent} or {@code inconclusive}. Every per-version map has every version, in order, with {@code null}
 * where undefined (never NaN). Values, ratios and p-values are rounded half-even to 6 significant
 * digits. The same report gives the same bytes on every machine.
 */
public final class TrendJson {
  private static final MathContext DIGITS = new MathContext(6, RoundingMode.HALF_EVEN);
  /** {@code change_point_figures} of a paired trend. */
  public static final String CHANGE_POINT_FIGURES_PAIRED = "paired";

  private TrendJson() {}

  public static String write(TrendReport report) {
    return JsonText.pretty(tree(report));
  }

  /** The JSON tree (trend.html embeds it). */
  public static ObjectNode tree(TrendReport report) {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("by", report.by());
    root.put("base", report.base());
    root.put("metric", report.metric());
    root.put("unit", report.unit());
    root.put("higher_is_better", report.higherIsBetter());
    root.put("where", report.where());
    root.put("design", report.design());
    if (report.comparison() != null) {
      root.put("comparison", report.comparison());
    }
    if (report.scope() != null) {
      report.scope().json(root.putObject("scope"));
    }
    if (report.cutShort() != null) {
      report.cutShort().json(root.putObject("cut_short"));
    }
    ArrayNode versions = root.putArray("versions");
    report.versions().forEach(versions::add);
    if (report.orderBy() != null) {
      root.put("order_by", report.orderBy());
    }
    if (report.gaps() != null) {
      ArrayNode gaps = root.putArray("gaps");
      report.gaps().forEach(gaps::add);
    }
    SeriesAxis axis = SeriesAxis.of(report);
    if (axis != null) {
      ObjectNode x = root.putObject("x_axis");
      x.put("kind", axis.kind());
      x.put("title", axis.title());
      ObjectNode at = x.putObject("at");
      axis.at().forEach(at::put);
    }
    ArrayNode steps = root.putArray("steps");
    for (StepTrend s : report.steps()) {
      ObjectNode step = steps.addObject();
      step.put("step", s.step());
      step.put("group", s.group());
      List<VersionFigure> at = s.versions();
      byVersion(step.putObject("values"), at, (node, v) -> node.set(v.version(), number(v.value())));
      byVersion(step.putObject("relative"), at, (node, v) -> node.set(v.version(), number(v.relative())));
      byVersion(step.putObject("ci95"), at, (node, v) -> node.set(v.version(), range(node, v.ci95())));
      byVersion(step.putObject("spread"), at, (node, v) -> node.set(v.version(), number(v.spread())));
      byVersion(step.putObject("runs"), at, (node, v) -> node.put(v.version(), v.runs()));
      step.put("noisy", s.noisy());
      byVersion(step.putObject("verdict"), at, (node, v) -> node.put(v.version(), verdict(v.verdict())));
      byVersion(step.putObject("runs_needed"), at, (node, v) -> node.put(v.version(),
          v.runsNeeded() == null ? null : v.runsNeeded().runs()));
      byVersion(step.putObject("verdict_vs_previous"), at, (node, v) -> node.put(v.version(), verdict(v.versusPrevious())));
      ArrayNode changePoints = step.putArray("change_points");
      for (ChangePoint c : s.changePoints()) {
        ObjectNode point = changePoints.addObject();
        point.put("at", c.at());
        point.set("before", number(c.before()));
        point.set("after", number(c.after()));
        point.set("ratio", number(c.ratio()));
        point.set("p", number(c.p()));
      }
      byVersion(step.putObject("confounders"), at, (node, v) -> node.set(v.version(), Confounder.json(v.confounders())));
      byVersion(step.putObject("analysis"), at, (node, v) -> node.put(v.version(), v.analysis()));
      byVersion(step.putObject("pairs"), at, (node, v) -> node.set(v.version(), PairsJson.of(node, v.pairs())));
      byVersion(step.putObject("values_ci95"), at, (node, v) -> node.set(v.version(), range(node, v.valueCi95())));
      byVersion(step.putObject("run_values"), at, (node, v) -> {
        ObjectNode byRun = node.putObject(v.version());
        for (int i = 0; i < v.runIds().size(); i++) {
          byRun.set(v.runIds().get(i), number(v.runValues().get(i)));
        }
      });
      if (report.resources().containsKey(s.step())) {
        ObjectNode resources = step.putObject("resources");
        report.resources().get(s.step()).forEach((version, r) -> r.figures().json(resources.putObject(version),
            r.sentence()));
      }
    }
    ArrayNode groups = root.putArray("groups");
    for (GroupTrend g : report.groups()) {
      ObjectNode group = groups.addObject();
      group.put("group", g.group());
      ObjectNode geomean = group.putObject("geomean");
      g.versions().forEach(v -> geomean.set(v.version(), number(v.geomean())));
      ObjectNode ci = group.putObject("ci95");
      g.versions().forEach(v -> ci.set(v.version(), range(ci, v.ci95())));
      ObjectNode counts = group.putObject("steps");
      g.versions().forEach(v -> counts.put(v.version(), v.steps()));
      ObjectNode verdicts = group.putObject("verdict");
      g.versions().forEach(v -> verdicts.put(v.version(), v.verdict() == null ? null : v.verdict().jsonName()));
    }
    ObjectNode calls = root.putObject("calls_against_base");
    for (String version : report.compared()) {
      ObjectNode counts = calls.putObject(version);
      for (Verdict verdict : Verdict.values()) {
        counts.put(verdict.jsonName(), report.callsAgainstBase(version).count(verdict));
      }
    }
    ArrayNode flags = root.putArray("flags");
    for (Flag f : report.flags()) {
      ObjectNode flag = flags.addObject();
      flag.put("step", f.step());
      flag.put("from", f.from());
      flag.put("to", f.to());
      flag.put("kind", f.kind());
      flag.put("verdict", f.verdict().jsonName());
      flag.put("beyond_margin", f.beyondMargin());
      flag.set("change", number(f.change()));
      flag.set("ci95", range(flag, f.ci95()));
      flag.set("p", number(f.p()));
      flag.set("p_adjusted", number(f.pAdjusted()));
      flag.set("confounders", Confounder.json(f.confounders()));
    }
    ObjectNode runs = root.putObject("runs");
    report.runs().forEach((v, ids) -> strings(runs.putArray(v), ids));
    root.set("alpha", number(report.settings().alpha()));
    root.set("margin", number(report.settings().margin()));
    root.put("correction", report.settings().correction().label());
    root.set("change_point_alpha", number(report.changePointAlpha()));
    if (report.changePointsPaired()) {
      root.put("change_point_figures", CHANGE_POINT_FIGURES_PAIRED);
    }
    strings(root.putArray("messages"), report.messages());
    strings(root.putArray("warnings"), report.warnings());
    strings(root.putArray("methods"), report.methods());
    return root;
  }

  /** One key per version, in order: {@code put(node, figure)} writes the figure's. */
  private static void byVersion(ObjectNode node, List<VersionFigure> figures, BiConsumer<ObjectNode, VersionFigure> put) {
    figures.forEach(f -> put.accept(node, f));
  }

  private static String verdict(Verdict verdict) {
    return verdict == null ? null : verdict.jsonName();
  }

  private static ArrayNode range(ObjectNode owner, Range range) {
    if (range == null || range.low() == null || range.high() == null || !Double.isFinite(range.low())
        || !Double.isFinite(range.high())) {
      return null;
    }
    return owner.arrayNode().add(number(range.low())).add(number(range.high()));
  }

  private static DecimalNode number(Double value) {
    return JsonText.rounded(value, DIGITS);
  }

  private static void strings(ArrayNode into, List<String> values) {
    values.forEach(into::add);
  }
}
