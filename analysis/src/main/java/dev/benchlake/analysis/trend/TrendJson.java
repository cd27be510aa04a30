package dev.benchlake.analysis.trend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.JsonText;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.Json;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * trend.json: {@code {"by", "base", "metric", "unit", "higher_is_better", "where", "versions",
 * "steps": [{"step", "group", "values", "relative", "ci95", "spread", "runs", "noisy", "verdict",
 * "runs_needed", "verdict_vs_previous", "change_points": [{"at", "before", "after", "ratio", "p"}],
 * "confounders"}], "groups": [{"group", "geomean", "ci95", "steps"}],
 * "flags": [{"step", "from", "to", "kind", "verdict", "beyond_margin", "change", "ci95", "p",
 * "p_adjusted", "confounders"}], "runs", "alpha", "margin", "correction", "change_point_alpha", "messages",
 * "methods"}}.
 * {@code confounders} is a list of {@code {"kind", "detail"}} (table maintenance: {@code
 * dead_tuples}, {@code autovacuum}, {@code autoanalyze}, or {@code not_recorded}), per step and
 * version against the base (null at the base and without a figure; empty: recorded and the same
 * state) and per flagged change between its two versions. Verdicts are
 * {@code faster}, {@code slower}, {@code equivalent} or {@code inconclusive}. Every per-version map has every version, in order, with {@code null}
 * where undefined (never NaN). Values, ratios and p-values are rounded half-even to 6 significant
 * digits. The same report gives the same bytes on every machine.
 */
public final class TrendJson {
  private static final MathContext DIGITS = new MathContext(6, RoundingMode.HALF_EVEN);

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
    ArrayNode versions = root.putArray("versions");
    report.versions().forEach(versions::add);
    ArrayNode steps = root.putArray("steps");
    for (StepTrend s : report.steps()) {
      ObjectNode step = steps.addObject();
      step.put("step", s.step());
      step.put("group", s.group());
      numbers(step.putObject("values"), s.values());
      numbers(step.putObject("relative"), s.relative());
      ObjectNode ci = step.putObject("ci95");
      s.ci95().forEach((v, range) -> ci.set(v, range(ci, range)));
      numbers(step.putObject("spread"), s.spread());
      ObjectNode runs = step.putObject("runs");
      s.runs().forEach(runs::put);
      step.put("noisy", s.noisy());
      strings(step.putObject("verdict"), s.verdict());
      ObjectNode needed = step.putObject("runs_needed");
      s.runsNeeded().forEach(needed::put);
      strings(step.putObject("verdict_vs_previous"), s.versusPrevious());
      ArrayNode changePoints = step.putArray("change_points");
      for (ChangePoint c : s.changePoints()) {
        ObjectNode point = changePoints.addObject();
        point.put("at", c.at());
        point.set("before", number(c.before()));
        point.set("after", number(c.after()));
        point.set("ratio", number(c.ratio()));
        point.set("p", number(c.p()));
      }
      ObjectNode confounders = step.putObject("confounders");
      report.versions().forEach(v -> confounders.set(v, Confounder.json(report.confounders().at(s.step(), v))));
    }
    ArrayNode groups = root.putArray("groups");
    for (GroupTrend g : report.groups()) {
      ObjectNode group = groups.addObject();
      group.put("group", g.group());
      numbers(group.putObject("geomean"), g.geomean());
      ObjectNode ci = group.putObject("ci95");
      g.ci95().forEach((v, range) -> ci.set(v, range(ci, range)));
      ObjectNode counts = group.putObject("steps");
      g.steps().forEach(counts::put);
    }
    ArrayNode flags = root.putArray("flags");
    for (Flag f : report.flags()) {
      ObjectNode flag = flags.addObject();
      flag.put("step", f.step());
      flag.put("from", f.from());
      flag.put("to", f.to());
      flag.put("kind", f.kind());
      flag.put("verdict", f.verdict());
      flag.put("beyond_margin", f.beyondMargin());
      flag.set("change", number(f.change()));
      flag.set("ci95", range(flag, f.ci95()));
      flag.set("p", number(f.p()));
      flag.set("p_adjusted", number(f.pAdjusted()));
      flag.set("confounders", Confounder.json(report.confounders().of(f)));
    }
    ObjectNode runs = root.putObject("runs");
    report.runs().forEach((v, ids) -> strings(runs.putArray(v), ids));
    root.set("alpha", number(report.alpha()));
    root.set("margin", number(report.margin()));
    root.put("correction", report.correction());
    root.set("change_point_alpha", number(report.changePointAlpha()));
    strings(root.putArray("messages"), report.messages());
    strings(root.putArray("methods"), report.methods());
    return root;
  }


  private static void numbers(ObjectNode into, Map<String, ? extends Number> values) {
    values.forEach((v, x) -> into.set(v, x == null ? null : number(x.doubleValue())));
  }

  private static ArrayNode range(ObjectNode owner, Range range) {
    if (range == null || range.low() == null || range.high() == null || !Double.isFinite(range.low())
        || !Double.isFinite(range.high())) {
      return null;
    }
    return owner.arrayNode().add(number(range.low())).add(number(range.high()));
  }

  private static DecimalNode number(double value) {
    return JsonText.rounded(value, DIGITS);
  }

  private static void strings(ObjectNode into, Map<String, String> values) {
    values.forEach(into::put);
  }

  private static void strings(ArrayNode into, List<String> values) {
    values.forEach(into::add);
  }
}
