package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.core.raw.ResourceMetric;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Row;

/**
 * A step's per-operation resource figures on both sides ({@link ResourceFigure}, one per
 * {@link ResourceMetric}), and the sentence a step called faster or slower gets from them: the
 * largest change, then server CPU and server context switches per operation if not named. Descriptive:
 * no figure is a call, none spends the α budget.
 *
 * @param analysis {@code paired} or {@code unpaired}: the step's verdict's ({@link Pairing#analysis})
 */
public record ResourceFigures(String analysis, List<ResourceFigure> figures) {
  /** What every table and section of them says of them. */
  public static final String DESCRIPTIVE = "Per-operation resources (descriptive, not calls: 95% intervals, outside"
      + " the α budget and its correction)";

  /** The methods' line of a report that shows them. */
  public static final String METHOD = "Per-operation resources (server and client CPU time and context switches, WAL,"
      + " blocks, temp bytes, commits and rollbacks, each divided by the step's completed tasks, as loadgen recorded"
      + " them) are descriptive, not calls: per figure θ of the runs' figures by the verdict's own analysis (the same"
      + " pairs in a duet), its 95% interval outside the α budget and its correction; the change in the figure's unit"
      + " is θ applied to the baseline's geometric mean. A figure a side did not measure says so, never 0. Each step"
      + " called faster or slower names its largest per-operation change.";

  /** The figures the sentence always speaks of: the two, CPU and context switches of the server. */
  private static final List<ResourceMetric> ALWAYS = List.of(ResourceMetric.SERVER_CPU_US_PER_OP,
      ResourceMetric.SERVER_CS_PER_OP);

  public ResourceFigures {
    figures = List.copyOf(figures);
  }

  /**
   * Every figure of one step, or null when no run of either side has any (runs of earlier loadgens,
   * other tools): such a step says nothing of resources.
   *
   * @param byRun each metric's figures by side and run id
   * @param notMeasuredWhy each counter's reason by side (the first of a side's runs to give one)
   */
  public static ResourceFigures of(Map<ResourceMetric, Sides<Map<String, Double>>> byRun,
      Sides<Map<String, String>> notMeasuredWhy, Pairing pairing) {
    if (byRun.values().stream().allMatch(s -> s.both(Map::isEmpty))) {
      return null;
    }
    List<ResourceFigure> figures = new ArrayList<>();
    for (ResourceMetric metric : ResourceMetric.values()) {
      Sides<Map<String, Double>> figure = byRun.getOrDefault(metric, Sides.of(Map.of(), Map.of()));
      Sides<String> why = notMeasuredWhy.map(reasons -> metric.counters().stream().map(reasons::get)
          .filter(r -> r != null).findFirst().orElse(null));
      figures.add(ResourceFigure.of(metric, figure, why, pairing.method()));
    }
    return new ResourceFigures(pairing.analysis(), figures);
  }

  /** The figure of a metric. */
  public ResourceFigure figure(ResourceMetric metric) {
    return figures.stream().filter(f -> f.metric() == metric).findFirst().orElseThrow();
  }

  /** The figure that moved most (the largest |ln θ| whose interval excludes no change), if any. */
  public Optional<ResourceFigure> largestChange() {
    return figures.stream().filter(ResourceFigure::moved)
        .max(Comparator.comparingDouble(f -> Math.abs(Math.log(f.ratio()))));
  }

  /**
   * A step's call with why: {@code PostgreSQL 17 is 8.1% [5.0, 11.2] slower on point-select: server
   * CPU per operation +6.2 µs [+4.0, +8.3], server context switches per operation unchanged.} The
   * percentage and interval are the call's own θ and interval as its table shows them (their sizes:
   * a faster latency's interval reads from its far bound); null for a step not called faster or slower.
   *
   * @param candidate the candidate as the title names it ({@code PostgreSQL 17})
   * @param ratio the call's θ (a latency's, or a throughput's: the sizes are its distance from 1)
   * @param interval the interval the call rests on, as the table shows it
   */
  public String sentence(String candidate, String step, Verdict verdict, Double ratio, Range interval) {
    if (verdict != Verdict.FASTER && verdict != Verdict.SLOWER || ratio == null || interval == null
        || !interval.bounded()) {
      return null;
    }
    boolean above = ratio > 1;
    double size = Math.abs(ratio - 1);
    double near = above ? interval.low() - 1 : 1 - interval.high();
    double far = above ? interval.high() - 1 : 1 - interval.low();
    String call = candidate + " is " + percent(size) + "% [" + percent(near) + ", " + percent(far) + "] "
        + (verdict == Verdict.SLOWER ? "slower" : "faster") + " on " + step;
    List<String> parts = new ArrayList<>();
    Optional<ResourceFigure> largest = largestChange();
    largest.ifPresent(f -> parts.add(f.sentencePart()));
    for (ResourceMetric metric : ALWAYS) {
      if (largest.isEmpty() || largest.get().metric() != metric) {
        parts.add(figure(metric).sentencePart());
      }
    }
    String detail = String.join(", ", parts);
    return largest.isPresent() ? call + ": " + detail + "."
        : call + "; no per-operation figure moved (" + detail + ").";
  }

  /** The table's header: figure, each side's level, the change with its interval, θ. */
  public static List<String> header(Sides<String> sideNames) {
    return List.of("figure", sideNames.baseline(), sideNames.candidate(), "change [95% interval]", "θ");
  }

  /** One row per figure, as {@link #header} names the cells. */
  public List<List<String>> rows() {
    return figures.stream().map(f -> List.of(f.label(),
        f.level().baseline() == null ? "not measured" : f.amount(f.level().baseline()),
        f.level().candidate() == null ? "not measured" : f.amount(f.level().candidate()), f.changeText(),
        f.ratio() == null ? Format.DASH : "×" + Format.significant(f.ratio(), 3))).toList();
  }

  /** The Markdown section of one step: its heading line, the sentence where there is one, the table. */
  public void markdown(StringBuilder md, String sentence, Sides<String> sideNames) {
    md.append(DESCRIPTIVE).append(", ").append(analysis).append(":\n\n");
    if (sentence != null) {
      md.append(Markdown.text(sentence)).append("\n\n");
    }
    Markdown.row(md, header(sideNames));
    Markdown.row(md, "---", "---:", "---:", "---:", "---:");
    for (List<String> row : rows()) {
      Markdown.row(md, row.stream().map(Markdown::text).toList());
    }
    md.append('\n');
  }

  /**
   * The JSON of one step's figures: {@code descriptive: true}, the analysis, the sentence (or null),
   * and per figure its metric, unit, each side's level, θ and the change with their 95 % intervals,
   * {@code moved}, and {@code not_measured} or {@code no_interval} with why.
   */
  public void json(ObjectNode node, String sentence) {
    node.put("descriptive", true);
    node.put("analysis", analysis);
    node.put("confidence", CONFIDENCE_JSON);
    node.put("sentence", sentence);
    ArrayNode all = node.putArray("figures");
    for (ResourceFigure f : figures) {
      ObjectNode o = all.addObject();
      o.put("metric", f.metric().metric());
      o.put("label", f.label());
      o.put("unit", f.metric().unit());
      o.set("baseline", number(f.level().baseline()));
      o.set("candidate", number(f.level().candidate()));
      o.set("ratio", number(f.ratio()));
      o.set("ratio_ci95", pair(node, f.ratioCi95()));
      o.set("change", number(f.change()));
      o.set("change_ci95", pair(node, f.changeCi95()));
      o.put("moved", f.moved());
      o.put("not_measured", f.notMeasured());
      o.put("no_interval", f.noInterval());
    }
  }

  private static final java.math.BigDecimal CONFIDENCE_JSON = new java.math.BigDecimal("0.95");
  private static final java.math.MathContext DIGITS = new java.math.MathContext(10, java.math.RoundingMode.HALF_EVEN);

  private static JsonNode number(Double value) {
    return value == null ? NullNode.getInstance() : JsonText.rounded(value, DIGITS);
  }

  private static JsonNode pair(ObjectNode owner, Range range) {
    return range.bounded() ? owner.arrayNode().add(number(range.low())).add(number(range.high()))
        : NullNode.getInstance();
  }

  /** What the HTML pages' {@code resources} partial shows of one step. */
  public record HtmlView(String title, String sentence, List<String> header, List<HtmlRow> rows) {}

  /** One row of {@link HtmlView}. */
  public record HtmlRow(List<String> cells) {}

  /** This step's {@link HtmlView}. */
  public HtmlView html(String sentence, Sides<String> sideNames) {
    return new HtmlView(DESCRIPTIVE + ", " + analysis, sentence, header(sideNames),
        rows().stream().map(HtmlRow::new).toList());
  }

  private static String percent(double fraction) {
    return String.format(java.util.Locale.ROOT, "%.1f", Format.round(fraction * 100, 1));
  }

  /**
   * The selected runs' per-operation rows of step_metrics (whole-run, named by {@link ResourceMetric}),
   * by step, metric and run, read on the driver with Delta Kernel as the table health is.
   */
  public static Map<String, Map<ResourceMetric, Map<String, Double>>> read(KernelWarehouse tables, Set<String> runIds) {
    Map<String, ResourceMetric> byName = new HashMap<>();
    for (ResourceMetric m : ResourceMetric.values()) {
      byName.put(m.metric(), m);
    }
    Map<String, Map<ResourceMetric, Map<String, Double>>> out = new HashMap<>();
    if (runIds.isEmpty()) {
      return out;
    }
    for (Row r : tables.rowsOf(Table.STEP_METRICS, runIds)) {
      ResourceMetric metric = byName.get(r.<String>getAs(WarehouseSchema.METRIC));
      if (metric == null || r.getAs(WarehouseSchema.INTERVAL_START_S) != null || r.getAs(WarehouseSchema.BUCKET) != null
          || !metric.unit().equals(r.getAs(WarehouseSchema.UNIT))) {
        continue;
      }
      Double value = r.getAs(WarehouseSchema.VALUE);
      if (value != null && Double.isFinite(value)) {
        out.computeIfAbsent(r.getAs(WarehouseSchema.STEP), k -> new HashMap<>())
            .computeIfAbsent(metric, k -> new HashMap<>()).put(r.getAs(WarehouseSchema.RUN_ID), value);
      }
    }
    return out;
  }

  /**
   * One step's figures from {@link #read}'s rows: each side's runs in their order ({@code runIds}),
   * the reasons of what was not measured from their manifests' {@code step_resources}; null when no
   * run has any.
   */
  public static ResourceFigures forStep(String step, Map<ResourceMetric, Map<String, Double>> rows,
      Sides<List<String>> runIds, Map<String, JsonNode> manifests, Pairing pairing) {
    if (rows == null) {
      return null;
    }
    Map<ResourceMetric, Sides<Map<String, Double>>> byRun = new LinkedHashMap<>();
    rows.forEach((metric, values) -> byRun.put(metric, runIds.map(ids -> {
      Map<String, Double> figures = new LinkedHashMap<>();
      ids.stream().filter(values::containsKey).forEach(id -> figures.put(id, values.get(id)));
      return figures;
    })));
    Sides<Map<String, String>> why = runIds.map(ids -> notMeasured(step, ids, manifests));
    return of(byRun, why, pairing);
  }

  /** Each counter's reason for not being measured in the first of these runs that gives one. */
  static Map<String, String> notMeasured(String step, List<String> runIds, Map<String, JsonNode> manifests) {
    Map<String, String> why = new HashMap<>();
    for (String id : runIds) {
      for (JsonNode entry : manifests.getOrDefault(id, com.fasterxml.jackson.databind.node.MissingNode.getInstance())
          .path("step_resources")) {
        boolean ours = step.equals(entry.path("step").asText());
        for (JsonNode name : entry.path("task_names")) {
          ours |= step.equals(name.asText());
        }
        if (ours) {
          entry.path("not_measured").fields().forEachRemaining(e -> why.putIfAbsent(e.getKey(), e.getValue().asText()));
        }
      }
    }
    return why;
  }
}
