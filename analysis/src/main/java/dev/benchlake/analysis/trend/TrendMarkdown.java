package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * trend.md: the groups' geometric means with their 95 % intervals, the changes between
 * consecutive versions, the change points of every step, then one table per group (the base version's values in their unit, the
 * other versions as ratios to it with their 95 % intervals and their call against the base), the
 * notes, the runs and the methods. Formatted by {@link Format}: the same text everywhere.
 */
public final class TrendMarkdown {
  private static final String DASH = "—";

  private TrendMarkdown() {}

  public static String write(TrendReport r) {
    StringBuilder md = new StringBuilder();
    md.append("# benchlake trend: ").append(r.metric()).append(" by ").append(r.by()).append(", relative to ")
        .append(r.base()).append("\n\n");
    md.append("- ").append(r.metric()).append(" in ").append(r.unit()).append(", ")
        .append(r.higherIsBetter() ? "higher" : "lower").append(" is better; relative = value / value at ")
        .append(r.base()).append(", so ").append(r.higherIsBetter() ? "above" : "below").append(" 1 is an improvement.\n");
    md.append("- Runs per version: ").append(String.join(", ", r.versions().stream()
        .map(v -> v + ": " + r.runs().get(v).size()).toList())).append(r.where() == null ? "" : "; where " + code(r.where()))
        .append(".\n");
    md.append("- Calls: faster, slower, equivalent (within ±").append(Format.percent(r.margin()))
        .append(") or inconclusive; ").append(r.correction()).append(" correction, α = ")
        .append(Format.significant(r.alpha(), 3)).append("; ≈ marks noisy steps (a 95% interval wider than ±")
        .append(Format.percent(r.margin())).append(").\n");
    md.append('\n').append(summary(r));
    for (GroupTrend g : r.groups()) {
      md.append("\n## ").append(text(capitalized(g.group()))).append("\n\n");
      header(md, "step", r.versions());
      for (StepTrend s : r.steps()) {
        if (!s.group().equals(g.group())) {
          continue;
        }
        List<String> cells = new ArrayList<>();
        cells.add(code(s.step()) + (s.noisy() ? " ≈" : ""));
        for (String v : r.versions()) {
          cells.add(cell(r, s, v));
        }
        row(md, cells);
      }
    }
    maintenance(md, r);
    if (!r.messages().isEmpty()) {
      md.append("\n## Notes\n\n");
      r.messages().forEach(m -> md.append("- ").append(m).append('\n'));
    }
    md.append("\n## Runs\n\n");
    row(md, List.of(r.by(), "runs"));
    row(md, List.of("---", "---"));
    r.versions().forEach(v -> row(md, List.of(text(v), String.join(", ", r.runs().get(v).stream().map(TrendMarkdown::code).toList()))));
    md.append("\n## Methods\n\n");
    r.methods().forEach(m -> md.append("- ").append(m).append('\n'));
    return md.toString();
  }

  /** The groups' geometric means and the flagged changes (what {@code benchlake trend} prints). */
  public static String summary(TrendReport r) {
    StringBuilder md = new StringBuilder("## Groups (geometric mean of the relatives, 95% interval; steps)\n\n");
    header(md, "group", r.versions());
    for (GroupTrend g : r.groups()) {
      List<String> cells = new ArrayList<>();
      cells.add(text(g.group()));
      r.versions().forEach(v -> cells.add(g.geomean().get(v) == null ? DASH
          : ratio(g.geomean().get(v)) + (g.ci95().get(v) == null ? "" : " " + interval(g.ci95().get(v))) + " ("
              + g.steps().get(v) + ")"));
      row(md, cells);
    }
    md.append("\n## Changes between consecutive versions (faster or slower)\n\n");
    if (r.flags().isEmpty()) {
      md.append("None.\n");
    } else {
      row(md, List.of("step", "from", "to", "change", "95% CI", "adjusted p", ""));
      row(md, List.of("---", "---", "---", "---:", "---:", "---:", "---"));
      for (Flag f : r.flags()) {
        row(md, List.of(code(f.step()), text(f.from()), text(f.to()), Format.change(f.change() - 1), interval(f.ci95()),
            Format.p(f.pAdjusted()), flagCall(r, f)));
      }
    }
    changePoints(md, r);
    return md.toString();
  }

  /** The change points of every step, or "None.". */
  private static void changePoints(StringBuilder md, TrendReport r) {
    md.append("\n## Change points (E-divisive means on the runs' logs, α = ").append(Format.significant(r.changePointAlpha(), 3))
        .append(")\n\n");
    List<String[]> rows = new ArrayList<>();
    for (StepTrend s : r.steps()) {
      for (ChangePoint c : s.changePoints()) {
        rows.add(new String[] {code(s.step()), text(c.at()), value(r, c.before()), value(r, c.after()),
            Format.change(c.ratio() - 1), Format.p(c.p())});
      }
    }
    if (rows.isEmpty()) {
      md.append("None: no step's level shifts along the ").append(text(r.by())).append(" values.\n");
      return;
    }
    row(md, List.of("step", "at", "level before", "level after", "change", "p"));
    row(md, List.of("---", "---", "---:", "---:", "---:", "---:"));
    rows.forEach(cells -> row(md, List.of(cells)));
  }

  /**
   * {@code **regression** (slower, beyond ±5%)}: whether the size of the change is settled too;
   * a change whose versions ran in different table-maintenance states says so.
   */
  static String flagCall(TrendReport r, Flag f) {
    String mark = Confounder.mark(r.confounders().of(f));
    return "**" + f.kind() + "** (" + f.verdict() + ", " + (f.beyondMargin() ? "beyond ±" + Format.percent(r.margin())
        : "size uncertain") + ")" + (mark == null ? "" : " ⚠ " + mark);
  }

  /**
   * The table maintenance section: every confounder with its figures, by step and comparison, and
   * the steps whose table health no run recorded.
   */
  private static void maintenance(StringBuilder md, TrendReport r) {
    List<String> lines = maintenanceLines(r, true);
    if (lines.isEmpty()) {
      return;
    }
    md.append("\n## Table maintenance\n\n");
    lines.forEach(l -> md.append("- ").append(l).append('\n'));
  }

  /**
   * Every flag with its figures, by step and comparison; then, in one line, the comparisons whose
   * table health was not recorded (never called clean); or that every one was recorded and none
   * is flagged.
   */
  static List<String> maintenanceLines(TrendReport r, boolean markdown) {
    java.util.function.UnaryOperator<String> code = markdown ? TrendMarkdown::code : t -> t;
    java.util.function.UnaryOperator<String> text = markdown ? TrendMarkdown::text : t -> t;
    List<String> lines = new ArrayList<>();
    java.util.Set<String> notRecorded = new java.util.LinkedHashSet<>();
    int checked = 0;
    for (StepTrend s : r.steps()) {
      for (String v : r.versions()) {
        List<Confounder> c = r.confounders().at(s.step(), v);
        if (c == null) {
          continue;
        }
        checked++;
        if (Confounder.notRecorded(c)) {
          notRecorded.add(s.step());
        }
        c.stream().filter(Confounder::flags).forEach(x -> lines.add(code.apply(s.step()) + ", " + text.apply(v) + " against "
            + text.apply(r.base()) + ": " + x.kind() + ": " + text.apply(x.detail())));
      }
    }
    for (Flag f : r.flags()) {
      List<Confounder> c = r.confounders().of(f);
      if (c != null) {
        c.stream().filter(Confounder::flags).forEach(x -> lines.add(code.apply(f.step()) + ", " + text.apply(f.from()) + " → "
            + text.apply(f.to()) + ": " + x.kind() + ": " + text.apply(x.detail())));
      }
    }
    if (!notRecorded.isEmpty()) {
      lines.add("Table health not recorded for " + String.join(", ", notRecorded.stream().map(code)
          .toList()) + " (in some runs of the versions compared; sysbench, pgbench and older loadgen runs carry none):"
          + " their table-maintenance state is unknown, neither flagged nor clean.");
    } else if (lines.isEmpty() && checked > 0) {
      lines.add("Table health recorded in every run: no step ran in a different table-maintenance state from the base.");
    }
    return lines.stream().map(l -> l.replace("\n", " ")).toList();
  }

  /** The base version's value in its unit; other versions' relatives with their interval and call. */
  private static String cell(TrendReport r, StepTrend s, String version) {
    Double value = s.values().get(version);
    if (value == null) {
      return DASH;
    }
    if (version.equals(r.base())) {
      return value(r, value);
    }
    Double relative = s.relative().get(version);
    if (relative == null) {
      return value(r, value);
    }
    Range ci = s.ci95().get(version);
    String verdict = s.verdict().get(version);
    Integer needed = s.runsNeeded().get(version);
    String mark = Confounder.mark(r.confounders().at(s.step(), version));
    return ratio(relative) + (ci == null ? "" : " " + interval(ci)) + (verdict == null ? "" : " " + verdict)
        + (needed == null ? "" : " (needs " + needed + " runs)") + (mark == null ? "" : " ⚠ " + mark);
  }

  /** A value in the metric's unit: {@code 49510/s}, {@code 1.234 ms}. */
  static String value(TrendReport r, double value) {
    return r.higherIsBetter() ? Format.significant(value, 4) + "/s" : Format.duration(value);
  }

  /** A ratio with three decimals. */
  static String ratio(double ratio) {
    return String.format(Locale.ROOT, "%.3f", Format.round(ratio, 3));
  }

  static String interval(Range ci) {
    return ci == null || ci.low() == null ? DASH : "[" + ratio(ci.low()) + ", " + ratio(ci.high()) + "]";
  }

  private static void header(StringBuilder md, String first, List<String> versions) {
    List<String> head = new ArrayList<>(List.of(first));
    List<String> rule = new ArrayList<>(List.of("---"));
    versions.forEach(v -> {
      head.add(text(v));
      rule.add("---:");
    });
    row(md, head);
    row(md, rule);
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
  }

  /** Text from the data, safe in a table cell. */
  private static String text(String text) {
    return text.replace("|", "\\|");
  }

  private static String code(String text) {
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`";
  }

  private static void row(StringBuilder md, List<String> cells) {
    md.append('|');
    cells.forEach(c -> md.append(' ').append(c.replace("\n", " ")).append(" |"));
    md.append('\n');
  }
}
