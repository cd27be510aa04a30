package dev.benchlake.analysis.trend;

import static dev.benchlake.analysis.report.Markdown.code;
import static dev.benchlake.analysis.report.Markdown.codeCell;
import static dev.benchlake.analysis.report.Markdown.row;
import static dev.benchlake.analysis.report.Markdown.text;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.CallTally;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.HeldBack;
import dev.benchlake.analysis.report.Markdown;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.RunsAdvice;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * trend.md: the groups' geometric means with their 95 % intervals, each version's calls (with
 * several versions against the base), the changes between consecutive versions, the change points
 * of every step, then one table per group (the base version's values in their unit, the other
 * versions as ratios to it with their 95 % intervals and their call against the base; with more
 * than two versions against the base, ratio and call only, the intervals in one table below), the
 * notes, the pairs once, the runs and the methods. Formatted by {@link Format}: the same text everywhere.
 */
public final class TrendMarkdown {
  private static final String DASH = Markdown.DASH;
  private static final String NO_RUN = "no run";
  private static final String UNORDERED = "Not computed: the values are names with no order of their own (--order-by"
      + " LABEL gives them one).";

  private TrendMarkdown() {}

  public static String write(TrendReport r) {
    StringBuilder md = new StringBuilder();
    md.append("# benchlake trend: ").append(r.metric()).append(" by ").append(text(r.by())).append(", relative to ")
        .append(text(r.base())).append("\n\n");
    md.append("- ").append(r.metric()).append(" in ").append(r.unit()).append(", ")
        .append(r.higherIsBetter() ? "higher" : "lower").append(" is better; relative = value / value at ")
        .append(text(r.base())).append(", so ").append(r.higherIsBetter() ? "above" : "below").append(" 1 is an improvement.\n");
    md.append("- Runs per version: ").append(String.join(", ", r.versions().stream()
        .map(v -> text(v) + ": " + r.runs().get(v).size()).toList())).append(r.where() == null ? "" : "; where " + code(r.where()))
        .append(".\n");
    order(md, r);
    md.append("- Calls: faster, slower, equivalent (within ±").append(Format.percent(r.settings().margin()))
        .append(") or inconclusive; ").append(r.settings().correction().label()).append(" correction, α = ")
        .append(Format.significant(r.settings().alpha(), 3)).append("; ≈ marks noisy steps (a 95% interval wider than ±")
        .append(Format.percent(r.settings().margin())).append(").\n");
    boolean compact = compact(r);
    if (compact) {
      md.append("- Steps: each cell is the ratio to ").append(text(r.base())).append(" and its call; their 95% intervals,"
          + " and the runs an inconclusive call would need, are under Intervals against ").append(text(r.base()))
          .append(" (trend.json: ci95, runs_needed).\n");
    }
    md.append('\n').append(summary(r));
    for (GroupTrend g : r.groups()) {
      md.append("\n## ").append(text(capitalized(g.group()))).append("\n\n");
      header(md, "step", r);
      for (StepTrend s : r.steps()) {
        if (!s.group().equals(g.group())) {
          continue;
        }
        List<String> cells = new ArrayList<>();
        cells.add(codeCell(s.step()) + (s.noisy() ? " ≈" : ""));
        for (VersionFigure v : s.versions()) {
          cells.add(compact ? compactCell(r, v) : cell(r, v));
          gapCells(r, v.version(), cells);
        }
        row(md, cells);
      }
    }
    // The notes of the marks once, below the last group's table, not under each group's.
    List<String> notes = HeldBack.footnotes(r.steps().stream().flatMap(s -> s.versions().stream()
        .map(VersionFigure::decision)).toList(), r.settings(), "tests");
    if (!notes.isEmpty()) {
      md.append('\n').append(String.join(" ", notes)).append('\n');
    }
    if (compact) {
      intervals(md, r);
    }
    resources(md, r);
    maintenance(md, r);
    if (!r.messages().isEmpty()) {
      md.append("\n## Notes\n\n");
      r.messages().forEach(m -> md.append("- ").append(text(m)).append('\n'));
    }
    pairs(md, r);
    if (r.scope() != null) {
      md.append('\n').append(r.scope().markdown());
    }
    md.append("\n## Runs\n\n");
    row(md, List.of(text(r.by()), "runs"));
    row(md, List.of("---", "---"));
    r.versions().forEach(v -> {
      row(md, List.of(text(v), String.join(", ", r.runs().get(v).stream().map(Markdown::codeCell).toList())));
      if (!r.gapAfter(v).isEmpty()) {
        row(md, List.of(text(gapLabel(r.gapAfter(v))), NO_RUN));
      }
    });
    md.append("\n## Methods\n\n");
    r.methods().forEach(m -> md.append("- ").append(text(m)).append('\n'));
    return md.toString();
  }

  /**
   * In the paired analysis: that the relatives against the base are paired θ, then one table of the
   * pairs per study ({@link StudyPairs}: each version's pairs once, with the runs dropped), and the
   * steps paired otherwise as exceptions.
   */
  private static void pairs(StringBuilder md, TrendReport r) {
    if (r.design().equals(Pairing.UNPAIRED_DESIGN)) {
      return;
    }
    md.append("\n## Pairs (design ").append(text(r.design())).append(")\n\n");
    md.append("A paired version's relative against ").append(text(r.base())).append(" is the paired θ, the geometric"
        + " mean of the per-pair ratios of the runs' figures, and its interval the one-sample t of their logs (where the"
        + " pairs swap two CPU sets with at least 2 pairs each way, the set is fitted too: a two-period crossover,"
        + " df = pairs - 2).\n\n");
    List<StudyPairs> studies = StudyPairs.of(r);
    row(md, text(r.by()), "pair", text(r.base()) + " run", "run", "steps");
    row(md, "---", "---", "---", "---", "---:");
    for (StudyPairs s : studies) {
      s.all().pairs().forEach(p -> row(md, text(s.version()), text(p.key()), codeCell(p.runIds().baseline()),
          codeCell(p.runIds().candidate()), Integer.toString(s.stepsByKey().get(p.key()))));
    }
    md.append('\n');
    for (StudyPairs s : studies) {
      md.append("- ").append(text(s.version())).append(" against ").append(text(r.base())).append(": ")
          .append(count(s.all().size(), "pair")).append(", ")
          .append(s.complete() == s.steps() ? "every step paired by all of them"
              : s.complete() + " of " + s.steps() + " steps paired by all of them, the others below")
          .append(s.otherPairsRuns() == 0 ? "" : "; " + text(r.base()) + "'s other " + count(s.otherPairsRuns(), "run")
              + " are the other versions' partners")
          .append(".\n");
    }
    exceptions(md, r, studies);
  }

  /**
   * The steps paired by fewer pairs than their version has (decided and left out of the later rounds, or a
   * run without the step's figure), said once: steps whose pairs read the same ({@link StudyPairs#describe}:
   * by key, never by run) on one line, each step's versions named where it is not every paired version's.
   */
  private static void exceptions(StringBuilder md, TrendReport r, List<StudyPairs> studies) {
    Map<String, Map<String, List<String>>> stepsByPairing = new LinkedHashMap<>();
    studies.forEach(s -> s.otherwise().forEach((step, pairs) -> stepsByPairing.computeIfAbsent(s.describe(pairs),
        k -> new LinkedHashMap<>()).computeIfAbsent(step, k -> new ArrayList<>()).add(s.version())));
    if (stepsByPairing.isEmpty()) {
      return;
    }
    md.append("\nSteps paired by fewer (left out of later rounds once decided, or a run without the step's figure);"
        + " at every version against ").append(text(r.base())).append(" unless named:\n\n");
    stepsByPairing.forEach((pairing, steps) -> {
      List<String> named = new ArrayList<>();
      steps.forEach((step, versions) -> named.add(code(step) + (versions.size() == studies.size() ? ""
          : " at " + text(String.join(", ", versions)))));
      md.append("- ").append(String.join(", ", named)).append(": ").append(text(pairing))
          .append(pairing.endsWith(".") ? "\n" : ".\n");
    });
  }

  /**
   * The calls, then the groups' geometric means, each version's calls against the base (with
   * several), and the flagged changes (what {@code benchlake trend} prints).
   */
  public static String summary(TrendReport r) {
    StringBuilder md = new StringBuilder(text(headline(r))).append("\n\n");
    if (r.comparison() != null) {
      md.append("> ").append(text(r.comparison())).append("\n\n");
    }
    md.append(Markdown.warnings(r.warnings()));
    md.append("## Groups (geometric mean of the relatives, 95% interval, call; steps)\n\n");
    header(md, "group", r);
    for (GroupTrend g : r.groups()) {
      List<String> cells = new ArrayList<>();
      cells.add(text(g.group()));
      g.versions().forEach(v -> {
        cells.add(v.geomean() == null ? DASH
            : ratio(v.geomean(), v.ci95()) + (v.ci95() == null ? "" : " " + interval(v.ci95())) + groupCall(v)
                + " (" + v.steps() + ")");
        gapCells(r, v.version(), cells);
      });
      row(md, cells);
    }
    callsByVersion(md, r);
    md.append("\n## Changes between consecutive versions (faster or slower)\n\n");
    if (!r.ordered()) {
      md.append(UNORDERED).append('\n');
    } else if (r.flags().isEmpty()) {
      md.append("None.\n");
    } else {
      row(md, List.of("step", "from", "to", "change", "95% CI", "adjusted p", ""));
      row(md, List.of("---", "---", "---", "---:", "---:", "---:", "---"));
      for (Flag f : r.flags()) {
        row(md, List.of(codeCell(f.step()), text(f.from()), text(f.to()), Format.changeOf(f.change(), f.ci95()),
            interval(f.ci95()),
            Format.p(f.pAdjusted()), flagCall(r, f)));
      }
    }
    changePoints(md, r);
    return md.toString();
  }

  /**
   * With several versions against the base, how many steps each version has of each call against
   * it (the warm-up's left out): one column per version, as in the groups' table; nothing with one
   * version, whose counts the headline gives.
   */
  private static void callsByVersion(StringBuilder md, TrendReport r) {
    List<String> compared = r.compared();
    if (compared.size() < 2) {
      return;
    }
    md.append("\n## Calls of the steps against ").append(text(r.base())).append(", by version\n\n");
    comparedHeader(md, "call", r);
    for (dev.benchlake.analysis.stats.Verdict verdict : dev.benchlake.analysis.stats.Verdict.values()) {
      List<String> cells = new ArrayList<>(List.of(verdict.jsonName()));
      compared.forEach(v -> cells.add(Long.toString(r.callsAgainstBase(v).count(verdict))));
      row(md, cells);
    }
  }

  /**
   * Whether the steps' tables give each figure as its ratio and call only, the intervals in a table
   * of their own ({@link #intervals}): with more than {@value #INLINE_INTERVALS_UP_TO} versions
   * against the base, a row of full cells (ratio, interval, call, runs needed) no longer fits a
   * screen; with two or fewer, each row keeps everything on one line.
   */
  static boolean compact(TrendReport r) {
    return r.compared().size() > INLINE_INTERVALS_UP_TO;
  }

  /** The most versions against the base whose cells carry their interval ({@link #compact}). */
  static final int INLINE_INTERVALS_UP_TO = 2;

  /**
   * The compact steps' tables' details: per step and version against the base, the 95% interval and
   * what more runs would do for an inconclusive call, in one table in the steps' order.
   */
  private static void intervals(StringBuilder md, TrendReport r) {
    md.append("\n## Intervals against ").append(text(r.base())).append(" (95%; runs an inconclusive call needs)\n\n");
    comparedHeader(md, "step", r);
    for (StepTrend s : r.steps()) {
      List<String> cells = new ArrayList<>(List.of(codeCell(s.step())));
      r.compared().forEach(v -> {
        VersionFigure f = s.at(v);
        cells.add(f.ci95() == null ? DASH : interval(f.ci95()) + moreRuns(f.runsNeeded()));
      });
      row(md, cells);
    }
  }

  /**
   * The calls before any figure: {@code Calls against 11: 3 faster, 1 slower, 10 equivalent, 34
   * inconclusive (48 step and version calls, holm); between consecutive versions: 2 slower, 1 faster.};
   * a study cut short, {@code Cut short after round …} first.
   */
  static String headline(TrendReport r) {
    CallTally base = r.callsAgainstBase();
    CallTally previous = r.callsBetweenVersions();
    String calls = "Calls against " + r.base() + ": " + base.text() + " (" + count(base.total(), "step and version call")
        + ", " + r.settings().correction().label() + warmUpLeftOut(r) + "); between consecutive versions: "
        + previous.text() + ".";
    return r.cutShort() == null ? calls : r.cutShort().sentence() + " " + calls;
  }

  /**
   * A study's answer on a terminal, its last lines before the paths: the calls ({@link #headline}), then each
   * step group at each version against the base, with its 95 % interval, one line each ({@code   16 against
   * 11: point query, part 1 -11.0% [-12.3%, -9.6%]}), then with several versions against the base each one's
   * calls ({@code   12: 3 slower, 30 equivalent, 14 inconclusive}); plain text, control characters escaped.
   */
  public static List<String> terminalLines(TrendReport r) {
    List<String> lines = new ArrayList<>();
    lines.add(headline(r));
    List<String> groups = new ArrayList<>();
    for (String version : r.versions()) {
      for (GroupTrend g : version.equals(r.base()) ? List.<GroupTrend>of() : r.groups()) {
        Double x = g.at(version).geomean();
        if (x != null) {
          Range ci95 = g.at(version).ci95();
          groups.add("  " + version + " against " + r.base() + ": " + g.group() + " " + Format.changeOf(x, ci95)
              + (ci95 == null ? "" : " " + Format.changeInterval(ci95)) + groupCall(g.at(version)));
        }
      }
    }
    if (!groups.isEmpty()) {
      lines.add("Groups (geometric means of the steps' " + r.metric() + " ratios, 95% intervals, calls: "
          + r.callsOfGroups().text() + "):");
      lines.addAll(groups);
    }
    if (r.compared().size() > 1) {
      lines.add("Calls of the steps against " + r.base() + ", by version:");
      r.compared().forEach(v -> lines.add("  " + v + ": " + r.callsAgainstBase(v).text()));
    }
    return lines.stream().map(dev.benchlake.core.TerminalText::escape).toList();
  }

  /** {@code ; the warm-up point-query.warm not counted} where the steps have a warm-up ({@link TrendReport#warmUpSteps}). */
  static String warmUpLeftOut(TrendReport r) {
    List<String> warm = r.warmUpSteps();
    return warm.isEmpty() ? "" : "; the warm-up " + String.join(", ", warm) + " not counted";
  }

  /** A group's call after its figure, {@code  slower}; empty where it has none (the base, the warm-up). */
  static String groupCall(TrendReport.GroupFigure g) {
    return g.verdict() == null ? "" : " " + g.verdict().jsonName();
  }

  static String count(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /** The change points of every step, or "None.". */
  /**
   * Per step and version against the base, the per-operation resource figures (descriptive) with
   * the sentence of a call faster or slower; nothing when no run has any.
   */
  private static void resources(StringBuilder md, TrendReport r) {
    if (r.resources().isEmpty()) {
      return;
    }
    md.append("\n## Per-operation resources against ").append(text(r.base())).append("\n\n");
    r.resources().forEach((step, byVersion) -> byVersion.forEach((version, res) -> {
      md.append("### ").append(code(step)).append(", ").append(text(version)).append(" against ")
          .append(text(r.base())).append("\n\n");
      res.figures().markdown(md, res.sentence(), dev.benchlake.analysis.report.Sides.of(r.base(), version));
    }));
  }

  private static void changePoints(StringBuilder md, TrendReport r) {
    md.append("\n## Change points (E-divisive means on ")
        .append(r.changePointsPaired() ? ChangePoints.PAIRED_FIGURES : "the runs' logs").append(", α = ")
        .append(Format.significant(r.changePointAlpha(), 3))
        .append(")\n\n");
    if (!r.ordered()) {
      md.append(UNORDERED).append('\n');
      return;
    }
    List<String[]> rows = new ArrayList<>();
    for (StepTrend s : r.steps()) {
      for (ChangePoint c : s.changePoints()) {
        rows.add(new String[] {codeCell(s.step()), text(c.at()), value(r, c.before()), value(r, c.after()),
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
    String mark = Confounder.mark(f.confounders());
    return "**" + f.kind() + "** (" + f.verdict().jsonName() + ", " + (f.beyondMargin() ? "beyond ±"
        + Format.percent(r.settings().margin()) : "size uncertain") + ")" + (mark == null ? "" : " ⚠ " + mark);
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
   * is flagged. trend.md of more than two versions against the base ({@link #compact}) collects the
   * flags by kind, one line each naming its steps and their comparisons, the figures in trend.json's
   * {@code confounders} and trend.html's list.
   */
  static List<String> maintenanceLines(TrendReport r, boolean markdown) {
    java.util.function.UnaryOperator<String> code = markdown ? Markdown::code : t -> t;
    java.util.function.UnaryOperator<String> text = markdown ? Markdown::text : t -> t;
    boolean collect = markdown && compact(r);
    // kind -> step -> the versions flagged with it against the base, then the consecutive comparisons
    Map<String, Map<String, List<List<String>>>> byKind = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>();
    java.util.Set<String> notRecorded = new java.util.LinkedHashSet<>();
    int checked = 0;
    for (StepTrend s : r.steps()) {
      for (VersionFigure v : s.versions()) {
        List<Confounder> c = v.confounders();
        if (c == null) {
          continue;
        }
        checked++;
        if (Confounder.notRecorded(c)) {
          notRecorded.add(s.step());
        }
        c.stream().filter(Confounder::flags).forEach(x -> {
          if (collect) {
            flagged(byKind, x.kind(), s.step()).get(0).add(text.apply(v.version()));
          } else {
            lines.add(code.apply(s.step()) + ", " + text.apply(v.version()) + " against " + text.apply(r.base()) + ": "
                + x.kind() + ": " + text.apply(x.detail()));
          }
        });
      }
    }
    for (Flag f : r.flags()) {
      List<Confounder> c = f.confounders();
      if (c != null) {
        c.stream().filter(Confounder::flags).forEach(x -> {
          if (collect) {
            flagged(byKind, x.kind(), f.step()).get(1).add(text.apply(f.from()) + " → " + text.apply(f.to()));
          } else {
            lines.add(code.apply(f.step()) + ", " + text.apply(f.from()) + " → " + text.apply(f.to()) + ": " + x.kind()
                + ": " + text.apply(x.detail()));
          }
        });
      }
    }
    byKind.forEach((kind, steps) -> lines.add(kind + ": " + String.join("; ", steps.entrySet().stream().map(e -> {
      List<String> where = new ArrayList<>();
      if (!e.getValue().get(0).isEmpty()) {
        where.add(String.join(", ", e.getValue().get(0)) + " against " + text.apply(r.base()));
      }
      where.addAll(e.getValue().get(1));
      return code.apply(e.getKey()) + " (" + String.join(", ", where) + ")";
    }).toList()) + "; the figures are in trend.json's confounders and trend.html."));
    if (!notRecorded.isEmpty()) {
      lines.add("Table health not recorded for " + String.join(", ", notRecorded.stream().map(code)
          .toList()) + " (in some runs of the versions compared; sysbench, pgbench and older loadgen runs carry none):"
          + " their table-maintenance state is unknown, neither flagged nor clean.");
    } else if (lines.isEmpty() && checked > 0) {
      lines.add("Table health recorded in every run: no step ran in a different table-maintenance state from the base.");
    }
    return lines.stream().map(l -> l.replace("\n", " ")).toList();
  }

  /** A step's flags of one kind: the versions against the base, then the consecutive comparisons. */
  private static List<List<String>> flagged(Map<String, Map<String, List<List<String>>>> byKind, String kind,
      String step) {
    return byKind.computeIfAbsent(kind, k -> new LinkedHashMap<>()).computeIfAbsent(step,
        k -> List.of(new ArrayList<>(), new ArrayList<>()));
  }

  /** The base version's value in its unit; other versions' relatives with their interval and call. */
  private static String cell(TrendReport r, VersionFigure v) {
    if (v.value() == null) {
      return DASH;
    }
    if (v.version().equals(r.base()) || v.relative() == null) {
      return value(r, v.value());
    }
    String mark = Confounder.mark(v.confounders());
    return ratio(v.relative(), v.ci95()) + (v.ci95() == null ? "" : " " + interval(v.ci95()))
        + (v.verdict() == null ? "" : " " + v.verdict().jsonName() + HeldBack.mark(v.decision()))
        + moreRuns(v.runsNeeded()) + (mark == null ? "" : " ⚠ " + mark);
  }

  /**
   * A compact cell ({@link #compact}): the base version's value in its unit; another version's
   * ratio and call, with the marks of a held-back call and of a confounder ({@code ⚠}, named in
   * Table maintenance); its interval is in the table of intervals.
   */
  static String compactCell(TrendReport r, VersionFigure v) {
    if (v.value() == null) {
      return DASH;
    }
    if (v.version().equals(r.base()) || v.relative() == null) {
      return value(r, v.value());
    }
    return ratio(v.relative(), v.ci95()) + (v.verdict() == null ? "" : " " + v.verdict().jsonName()
        + HeldBack.mark(v.decision())) + (Confounder.mark(v.confounders()) == null ? "" : " ⚠");
  }

  /** The notes of the held-back calls ({@link HeldBack}) of a group's steps. */
  static List<String> heldBackNotes(TrendReport r, String group) {
    return HeldBack.footnotes(r.steps().stream().filter(s -> s.group().equals(group))
        .flatMap(s -> s.versions().stream().map(VersionFigure::decision)).toList(), r.settings(), "tests");
  }

  /** {@code  (needs 12 runs)} after an inconclusive call: what more runs would do, or nothing. */
  static String moreRuns(RunsAdvice advice) {
    if (advice == null) {
      return "";
    }
    return switch (advice.basis()) {
      case MARGIN, OBSERVED_EFFECT -> " (needs " + advice.runs() + " runs)";
      case EDGE_OF_MARGIN -> " (more runs won't decide: at the margin's edge)";
      case ALREADY_POWERED -> "";
    };
  }

  /** A value in the metric's unit: {@code 49510/s}, {@code 1.234 ms}. */
  public static String value(TrendReport r, double value) {
    return r.higherIsBetter() ? Format.significant(value, 4) + "/s" : Format.duration(value);
  }

  /**
   * A ratio with three decimals beside its interval, or {@link Format#TOO_NOISY} when that interval
   * spans more than a factor of 2.
   */
  static String ratio(double ratio, Range ci) {
    return ci != null && ci.tooNoisyToSay() ? Format.TOO_NOISY : ratio(ratio);
  }

  /** A ratio with three decimals. */
  static String ratio(double ratio) {
    return String.format(Locale.ROOT, "%.3f", Format.round(ratio, 3));
  }

  static String interval(Range ci) {
    return ci == null || ci.low() == null ? DASH : "[" + ratio(ci.low()) + ", " + ratio(ci.high()) + "]";
  }

  /** A table's head: {@code first}, then a column per version against the base. */
  private static void comparedHeader(StringBuilder md, String first, TrendReport r) {
    List<String> head = new ArrayList<>(List.of(first));
    List<String> rule = new ArrayList<>(List.of("---"));
    r.compared().forEach(v -> {
      head.add(text(v));
      rule.add("---:");
    });
    row(md, head);
    row(md, rule);
  }

  /** The versions' columns, and after a version followed by days without a run, a column of that gap. */
  private static void header(StringBuilder md, String first, TrendReport r) {
    List<String> head = new ArrayList<>(List.of(first));
    List<String> rule = new ArrayList<>(List.of("---"));
    r.versions().forEach(v -> {
      head.add(text(v));
      rule.add("---:");
      if (!r.gapAfter(v).isEmpty()) {
        head.add(text(gapLabel(r.gapAfter(v))));
        rule.add(":---:");
      }
    });
    row(md, head);
    row(md, rule);
  }

  /** The cell of the gap after {@code version}, if there is one. */
  private static void gapCells(TrendReport r, String version, List<String> cells) {
    if (!r.gapAfter(version).isEmpty()) {
      cells.add(NO_RUN);
    }
  }

  /** {@code 2026-11-05} or {@code 2026-11-05 – 2026-11-07 (3 days)}. */
  static String gapLabel(List<String> days) {
    return days.size() == 1 ? days.get(0) : days.get(0) + " – " + days.get(days.size() - 1) + " (" + days.size() + " days)";
  }

  /** How the versions are ordered and where a date has no run; nothing for versions, as before. */
  private static void order(StringBuilder md, TrendReport r) {
    if (r.orderBy() != null) {
      md.append("- Order: ").append(text(r.by())).append(" by ").append(text(r.orderBy())).append(" (--order-by).\n");
    }
    if (r.gaps() != null) {
      List<String> stretches = r.versions().stream().map(r::gapAfter).filter(g -> !g.isEmpty())
          .map(TrendMarkdown::gapLabel).toList();
      md.append("- Order: by date; ").append(stretches.isEmpty() ? "every day from the first to the last has a run"
          : "no run on " + String.join(", ", stretches) + " (a column of its own in the tables)").append(".\n");
    }
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
  }
}
