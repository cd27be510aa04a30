package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.html.HtmlTemplates;
import dev.benchlake.analysis.html.PageAssets;
import dev.benchlake.analysis.html.ScriptJson;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.report.HeldBack;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.GroupFigure;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import java.util.ArrayList;
import java.util.List;

/**
 * trend.html: one self-contained page. First the verdict (the groups' geometric means at the last
 * version and the faster/slower calls between consecutive versions), then a grouped bar chart per step group — each version's ratio
 * to the base as a bar drawn from the reference line at 1.0 on a log axis, with its 95 % interval,
 * noisy steps (interval wider than the margin) faded and marked ≈, each change point a dashed
 * marker through the bar of the first version of the new level, each figure whose sides ran in
 * different table-maintenance states outlined and marked ⚠ — and the tables with each
 * version's call against the base; it ends with what reproduces it. When {@code --by} is a series
 * (dates, timestamps, or an {@code --order-by}: {@link SeriesAxis}) each step also gets a line
 * chart along it, with its change points' levels and ratios (trend.js's {@code seriesChart}).
 *
 * <p>Why bars from 1.0 on a log axis: a ratio's bar that starts at 0 makes a 5 % change invisible,
 * and one that starts at 0.8 (as the published charts did) stretches it — its length then means
 * nothing. Drawn from 1.0 on a log scale, a bar's length is the size of the change, a halving as
 * long as a doubling, and the axis spans the data symmetrically around 1 (at least 0.8 to 1.25),
 * so that no small change looks large.
 */
public final class TrendHtml {
  private TrendHtml() {}

  public static String write(TrendReport report, Provenance provenance) {
    return HtmlTemplates.render("trend", view(report, provenance));
  }

  public record View(PageAssets assets, String title, String dataJson, String pageJs, String lead, String direction,
      List<String> versions, List<GroupRow> groups, boolean hasFlags, List<FlagRow> flags, boolean hasChangePoints,
      List<ChangePointRow> changePoints, String changePointAlpha, List<GroupSection> sections, boolean hasMessages,
      List<String> messages, List<RunsRow> runs, Provenance provenance, List<String> methods, String by,
      String baseLabel, boolean hasMaintenance, List<String> maintenance, boolean hasWarnings, List<String> warnings,
      String metric, boolean hasSeries, String seriesTitle, List<SeriesRow> series, boolean hasBars,
      dev.benchlake.analysis.report.Scope scope, String comparison, boolean hasResources,
      List<ResourceSection> resources, boolean hasCallsByVersion, List<String> compared, List<CallsRow> callsByVersion,
      String baseName, boolean compact, String changePointFigures) {}

  /** One step's per-operation resource figures at one version against the base. */
  public record ResourceSection(String heading, dev.benchlake.analysis.report.ResourceFigures.HtmlView resources) {}

  /** Bars per value of --by read well up to this many values; a longer series is drawn as lines only. */
  static final int MAX_BARS_OF_A_SERIES = 6;

  /** A step's series chart ({@link SeriesAxis}): its index in trend.json's steps. */
  public record SeriesRow(int index, String step) {}

  /** @param css {@code better}, {@code worse} or {@code same}, by the metric's direction */
  public record ChangePointRow(String step, String at, String before, String after, String change, String css, String p) {}

  /** @param title the figure in full where the text is compact (interval, runs needed, confounders); null otherwise */
  public record Cell(String text, String css, String title) {
    Cell(String text, String css) {
      this(text, css, null);
    }
  }

  /** One call's count per version against the base, as trend.md's table of calls by version. */
  public record CallsRow(String call, List<String> counts) {}

  public record GroupRow(String group, List<Cell> cells) {}

  /** @param call {@code (slower, beyond ±5%)} or {@code (faster, size uncertain)} */
  public record FlagRow(String step, String from, String to, String change, String ci, String pAdjusted, String kind,
      String call) {}

  /** @param hasCpu whether a step of the group has server CPU per operation to chart beside the metric */
  public record GroupSection(int index, String group, int steps, List<StepRow> rows, List<String> notes,
      boolean hasCpu) {}

  public record StepRow(String step, boolean noisy, String groupName, List<Cell> cells) {}

  public record RunsRow(String version, int count, String runs) {}

  static View view(TrendReport r, Provenance provenance) {
    List<GroupRow> groups = new ArrayList<>();
    for (GroupTrend g : r.groups()) {
      List<Cell> cells = new ArrayList<>();
      for (GroupFigure v : g.versions()) {
        Double x = v.geomean();
        String ci = v.ci95() == null ? "" : " " + TrendMarkdown.interval(v.ci95());
        cells.add(x == null ? new Cell("—", "none") : new Cell(TrendMarkdown.ratio(x, v.ci95()) + ci + " (" + v.steps() + ")",
            v.version().equals(r.base()) ? "base" : groupCss(r, v.ci95())));
      }
      groups.add(new GroupRow(g.group(), cells));
    }
    List<FlagRow> flags = r.flags().stream().map(f -> new FlagRow(f.step(), f.from(), f.to(), Format.changeOf(f.change(), f.ci95()),
        TrendMarkdown.interval(f.ci95()), Format.p(f.pAdjusted()), f.kind(), "(" + f.verdict().jsonName() + ", "
            + (f.beyondMargin() ? "beyond ±" + Format.percent(r.settings().margin()) : "size uncertain") + ")"
            + confoundedMark(Confounder.mark(f.confounders())))).toList();
    List<GroupSection> sections = new ArrayList<>();
    for (int i = 0; i < r.groups().size(); i++) {
      String group = r.groups().get(i).group();
      List<StepRow> rows = new ArrayList<>();
      for (StepTrend s : r.steps()) {
        if (s.group().equals(group)) {
          List<Cell> cells = new ArrayList<>();
          for (VersionFigure v : s.versions()) {
            cells.add(cell(r, v));
          }
          rows.add(new StepRow(s.step(), s.noisy(), group, cells));
        }
      }
      boolean hasCpu = r.steps().stream().anyMatch(s -> s.group().equals(group) && r.resources().containsKey(s.step()));
      sections.add(new GroupSection(i, group, rows.size(), rows, TrendMarkdown.heldBackNotes(r, group), hasCpu));
    }
    List<ChangePointRow> changePoints = new ArrayList<>();
    for (StepTrend s : r.steps()) {
      for (ChangePoint c : s.changePoints()) {
        changePoints.add(new ChangePointRow(s.step(), c.at(), TrendMarkdown.value(r, c.before()),
            TrendMarkdown.value(r, c.after()), Format.change(c.ratio() - 1), direction(r, c.ratio(), r.settings().margin()),
            Format.p(c.p())));
      }
    }
    List<String> maintenance = TrendMarkdown.maintenanceLines(r, false);
    SeriesAxis axis = SeriesAxis.of(r);
    List<SeriesRow> series = new ArrayList<>();
    if (axis != null) {
      for (int i = 0; i < r.steps().size(); i++) {
        series.add(new SeriesRow(i, r.steps().get(i).step()));
      }
    }
    List<RunsRow> runs = r.versions().stream().map(v -> new RunsRow(v, r.runs().get(v).size(),
        String.join(", ", r.runs().get(v)))).toList();
    String direction = r.metric() + " in " + r.unit() + ", " + (r.higherIsBetter() ? "higher" : "lower")
        + " is better: a ratio " + (r.higherIsBetter() ? "above" : "below") + " 1 is an improvement.";
    return new View(PageAssets.get(), r.metric() + " by " + r.by() + ", relative to " + r.base(),
        ScriptJson.of(TrendJson.tree(r)), HtmlTemplates.text("trend.js"), lead(r), direction, r.versions(), groups,
        !flags.isEmpty(), flags, !changePoints.isEmpty(), changePoints, Format.significant(r.changePointAlpha(), 3),
        sections, !r.messages().isEmpty(), r.messages(), runs, provenance, r.methods(), r.by(),
        r.by() + " " + r.base(), !maintenance.isEmpty(), maintenance, !r.warnings().isEmpty(),
        r.warnings().stream().map(w -> "⚠ " + w).toList(), r.metric(), axis != null,
        axis == null ? null : axis.title(), series, axis == null || r.versions().size() <= MAX_BARS_OF_A_SERIES,
        r.scope(), r.comparison(), !r.resources().isEmpty(), resourceSections(r), r.compared().size() > 1,
        r.compared(), callsByVersion(r), r.base(), TrendMarkdown.compact(r),
        r.changePointsPaired() ? ChangePoints.PAIRED_FIGURES + " (the levels too are of those figures)"
            : "the logs of the runs' figures");
  }

  private static List<CallsRow> callsByVersion(TrendReport r) {
    return java.util.Arrays.stream(Verdict.values()).map(v -> new CallsRow(v.jsonName(), r.compared().stream()
        .map(version -> Long.toString(r.callsAgainstBase(version).count(v))).toList())).toList();
  }

  private static List<ResourceSection> resourceSections(TrendReport r) {
    List<ResourceSection> out = new ArrayList<>();
    r.resources().forEach((step, byVersion) -> byVersion.forEach((version, res) -> out.add(new ResourceSection(
        step + ", " + version + " against " + r.base(),
        res.figures().html(res.sentence(), dev.benchlake.analysis.report.Sides.of(r.base(), version))))));
    return out;
  }

  /** {@code  ⚠ confounded: dead_tuples} beside a figure whose sides ran in different table-maintenance states. */
  private static String confoundedMark(String mark) {
    return mark == null ? "" : " ⚠ " + mark;
  }

  /**
   * The calls first ({@link TrendMarkdown#headline}), then {@code At 16, against 11: point query
   * +5.2% [+4.0%, +6.4%], writes -12.9% [-14.1%, -11.7%] (geometric means …)}, each group with its
   * interval, and the change points.
   */
  static String lead(TrendReport r) {
    String last = r.versions().get(r.versions().size() - 1);
    String compared = last.equals(r.base()) ? r.versions().get(0) : last;
    List<String> parts = new ArrayList<>();
    for (GroupTrend g : r.groups()) {
      Double x = g.at(compared).geomean();
      if (x != null) {
        Range ci95 = g.at(compared).ci95();
        parts.add(g.group() + " " + Format.changeOf(x, ci95) + (ci95 == null ? "" : " " + Format.changeInterval(ci95))
            + TrendMarkdown.groupCall(g.at(compared)));
      }
    }
    String groups = parts.isEmpty() ? " No group has a relative at " + r.by() + " " + compared + "."
        : " At " + r.by() + " " + compared + ", against " + r.base() + ": " + String.join(", ", parts)
            + " (geometric means of the steps' " + r.metric() + " ratios, 95% intervals, calls).";
    long confounded = r.flags().stream().filter(f -> Confounder.anyFlag(f.confounders())).count();
    String flagged = confounded == 0 ? "" : " ⚠ " + TrendMarkdown.count(confounded, "faster or slower call")
        + " between consecutive versions confounded by table maintenance (see below).";
    long changes = r.steps().stream().mapToLong(s -> s.changePoints().size()).sum();
    String shifted = changes == 0 ? ""
        : " " + TrendMarkdown.count(changes, "change point") + " where a step's level shifts.";
    return TrendMarkdown.headline(r) + groups + flagged + shifted;
  }

  private static Cell cell(TrendReport r, VersionFigure v) {
    if (v.value() == null) {
      return new Cell("—", "none");
    }
    boolean base = v.version().equals(r.base());
    if (base || v.relative() == null) {
      return new Cell(TrendMarkdown.value(r, v.value()), base ? "base" : "none");
    }
    String ci = v.ci95() == null ? "" : " " + TrendMarkdown.interval(v.ci95());
    String verdict = v.verdict() == null ? "" : " " + v.verdict().jsonName() + HeldBack.mark(v.decision());
    String mark = Confounder.mark(v.confounders());
    String css = mark == null ? callCss(v.verdict()) : callCss(v.verdict()) + " confounded";
    String full = TrendMarkdown.ratio(v.relative(), v.ci95()) + ci + verdict
        + TrendMarkdown.moreRuns(v.runsNeeded()) + confoundedMark(mark);
    // With many versions the cell gives the ratio and call; the rest is its tooltip (and trend.json's).
    return TrendMarkdown.compact(r) ? new Cell(TrendMarkdown.compactCell(r, v), css, full)
        : new Cell(TrendMarkdown.ratio(v.relative(), v.ci95()) + ci + verdict + confoundedMark(mark), css);
  }

  /**
   * A figure's colour is its call's: {@code better} (faster), {@code worse} (slower), {@code same}
   * (equivalent), else {@code undecided}: an inconclusive figure is never shown as a gain or a loss.
   */
  private static String callCss(Verdict verdict) {
    if (verdict == null) {
      return "undecided";
    }
    return switch (verdict) {
      case FASTER -> "better";
      case SLOWER -> "worse";
      case EQUIVALENT -> "same";
      case INCONCLUSIVE -> "undecided";
    };
  }

  /**
   * A group's geometric mean has no call: it is coloured only where its whole 95 % interval lies
   * beyond the margin ({@code better}, {@code worse}) or within it ({@code same}).
   */
  private static String groupCss(TrendReport r, Range ci) {
    if (ci == null || !ci.bounded()) {
      return "undecided";
    }
    double upper = 1 + r.settings().margin();
    double lower = 1 / upper;
    if (ci.low() > upper || ci.high() < lower) {
      return (ci.low() > upper) == r.higherIsBetter() ? "better" : "worse";
    }
    return ci.low() >= lower && ci.high() <= upper ? "same" : "undecided";
  }

  /** {@code better}, {@code worse} or {@code same} (within the margin), by the metric's direction. */
  private static String direction(TrendReport r, double ratio, double margin) {
    if (Math.abs(ratio - 1) < margin) {
      return "same";
    }
    return (ratio > 1) == r.higherIsBetter() ? "better" : "worse";
  }
}
