package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.RunLevelEffect;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What {@code benchlake calibrate} found: for every design, handicap size and step, the estimate of
 * θ (side b over side a, median latency) against the ratio it must recover, 1 + size. One model,
 * read by the stdout lines, report.md and report.json alike.
 *
 * <p>{@code detectable} is the smallest difference this step's interval would detect at about 80 %
 * power: its 95 % half-width on the log scale × (1.96 + 0.84) / 1.96, as a change. It is read from
 * the interval's width alone, so a design's detectable size can be compared with the sizes it did
 * detect.
 *
 * <p>{@code scopes}: what each design's studies measured ({@link Scope}, from its first study's runs;
 * the sizes differ only in side b's handicap), so that the top-level report says it as every
 * comparison does (issue 46.1).
 */
public record Calibration(List<Row> rows, List<Control> controls, Map<String, Scope> scopes) {
  public Calibration {
    scopes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(scopes));
  }

  /** Rows and controls without the runs' scope (a test of the figures). */
  public Calibration(List<Row> rows, List<Control> controls) {
    this(rows, controls, Map.of());
  }

  /** One step of one study: {@code ratio} and {@code ci95} null where θ could not be estimated. */
  public record Row(String design, double size, String step, Double ratio, Range ci95, Verdict verdict) {
    public double expected() {
      return 1 + size;
    }

    /** Whether the 95 % interval holds the expected ratio. */
    public boolean covered() {
      return ratio != null && ci95.bounded() && ci95.low() <= expected() && expected() <= ci95.high();
    }

    /** estimate / expected − 1. */
    public Double bias() {
      return ratio == null ? null : ratio / expected() - 1;
    }

    /** Side b called slower: the handicap detected, in the right direction. */
    public boolean detected() {
      return verdict == Verdict.SLOWER;
    }

    public Double detectable() {
      if (ratio == null || !ci95.bounded()) {
        return null;
      }
      double halfWidthLog = (Math.log(ci95.high()) - Math.log(ci95.low())) / 2;
      return Math.exp(halfWidthLog * (1.96 + 0.84) / 1.96) - 1;
    }
  }

  /** A duet study's a/a control: both sides unhandicapped, θ must come out 1. */
  public record Control(String design, double size, AaControl control) {}

  /** The rows of one study's comparison, and its a/a control if it had one. */
  public static Calibration add(Calibration so, CalibratePlan plan, ComparisonReport report, AaControl control) {
    List<Row> rows = new ArrayList<>(so.rows);
    for (StepComparison s : report.steps()) {
      RunLevelEffect m = s.runLevel().median();
      rows.add(new Row(plan.design().id(), plan.stretch(), s.step(), m.estimate().ratio(), m.estimate().ci95(),
          s.verdict()));
    }
    List<Control> controls = new ArrayList<>(so.controls);
    if (control != null) {
      controls.add(new Control(plan.design().id(), plan.stretch(), control));
    }
    Map<String, Scope> scopes = new LinkedHashMap<>(so.scopes);
    if (report.scope() != null) {
      scopes.putIfAbsent(plan.design().id(), report.scope());
    }
    return new Calibration(rows, controls, scopes);
  }

  public static Calibration empty() {
    return new Calibration(List.of(), List.of());
  }

  /** The smallest size whose every step was called slower, for {@code design}. */
  public OptionalDouble smallestDetected(String design) {
    return rows.stream().filter(r -> r.design.equals(design)).mapToDouble(Row::size).distinct().sorted()
        .filter(size -> rows.stream().filter(r -> r.design.equals(design) && r.size == size).allMatch(Row::detected))
        .findFirst();
  }

  /** The largest detectable size of {@code design}'s rows (its noisiest step). */
  public OptionalDouble detectable(String design) {
    return rows.stream().filter(r -> r.design.equals(design) && r.detectable() != null)
        .mapToDouble(Row::detectable).max();
  }

  /** The sizes {@code design} ran, smallest first, as the user gave them. */
  private List<String> sizes(String design) {
    return rows.stream().filter(r -> r.design.equals(design)).mapToDouble(Row::size).distinct().sorted()
        .mapToObj(CalibratePlan::percent).toList();
  }

  public List<String> designs() {
    return rows.stream().map(Row::design).distinct().toList();
  }

  /** The rows whose interval missed the expected ratio. */
  public List<Row> missed() {
    return rows.stream().filter(r -> !r.covered()).toList();
  }

  /** The table: one line a row, then each design's summary and its a/a controls, then each design's scope. */
  public String markdown() {
    StringBuilder md = new StringBuilder("| design | size | step | expected | estimate | 95 % interval | covered | bias "
        + "| verdict | detectable |\n|---|---:|---|---:|---:|---:|---|---:|---|---:|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %s | `%s` | %.3f | %s | %s | %s | %s | %s | %s |%n", r.design,
          CalibratePlan.percent(r.size), r.step, r.expected(), number(r.ratio), interval(r.ci95),
          r.covered() ? "yes" : "**no**", change(r.bias()), r.verdict == null ? "—" : r.verdict.name()
              .toLowerCase(Locale.ROOT), change(r.detectable())));
    }
    md.append('\n');
    summary().forEach(line -> md.append("- ").append(line).append('\n'));
    scopes.forEach((design, scope) -> md.append('\n').append(scope.markdown("Scope of the " + design + " studies")));
    return md.toString();
  }

  /** Per design: what it detected, what it could, its a/a controls; and the misses. */
  public List<String> summary() {
    List<String> lines = new ArrayList<>();
    for (String design : designs()) {
      OptionalDouble smallest = smallestDetected(design);
      OptionalDouble width = detectable(design);
      lines.add(design + ": " + (smallest.isPresent()
          ? "the smallest size detected on every step (called slower) " + CalibratePlan.percent(smallest.getAsDouble())
          : "no size run (" + String.join(", ", sizes(design)) + ") was detected on every step (called slower)")
          + "; detectable from the interval widths about " + (width.isPresent() ? change(width.getAsDouble()) : "—")
          + " (its noisiest step, 80 % power)");
    }
    for (Control c : controls) {
      lines.add(c.design + " " + CalibratePlan.percent(c.size) + ": " + c.control.sentence());
    }
    for (Row r : missed()) {
      lines.add(String.format(Locale.ROOT, "Missed: %s %s %s, the 95 %% interval %s does not hold %.3f",
          r.design, CalibratePlan.percent(r.size), r.step, interval(r.ci95), r.expected()));
    }
    return lines;
  }

  /** report.json: every row with its figures, and the summary. */
  public ObjectNode json() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("format_version", 1);
    ArrayNode out = root.putArray("rows");
    for (Row r : rows) {
      ObjectNode row = out.addObject().put("design", r.design).put("size", r.size).put("step", r.step)
          .put("expected_ratio", r.expected()).put("ratio", r.ratio).put("covered", r.covered())
          .put("bias", r.bias()).put("detected", r.detected()).put("detectable", r.detectable())
          .put("verdict", r.verdict == null ? null : r.verdict.name().toLowerCase(Locale.ROOT));
      row.putArray("ci95").add(r.ci95.low()).add(r.ci95.high());
    }
    ArrayNode summary = root.putArray("summary");
    summary().forEach(summary::add);
    if (!scopes.isEmpty()) {
      ObjectNode byDesign = root.putObject("scope");
      scopes.forEach((design, scope) -> scope.json(byDesign.putObject(design)));
    }
    return root;
  }

  private static String number(Double ratio) {
    return ratio == null ? "—" : String.format(Locale.ROOT, "%.3f", ratio);
  }

  private static String interval(Range r) {
    return r.bounded() ? "[" + number(r.low()) + ", " + number(r.high()) + "]" : "—";
  }

  private static String change(Double fraction) {
    return fraction == null ? "—" : String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
  }
}
