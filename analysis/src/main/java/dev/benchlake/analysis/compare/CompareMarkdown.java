package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Markdown;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.significant;
import static dev.benchlake.analysis.report.Markdown.code;
import static dev.benchlake.analysis.report.Markdown.codeCell;
import static dev.benchlake.analysis.report.Markdown.row;

import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * report.md: the summary table (what {@code benchlake compare} prints), then each step in detail
 * and the methods. Numbers are formatted by {@link Format}, so the text is the same everywhere.
 */
public final class CompareMarkdown {
  private static final String DASH = Format.DASH;

  private CompareMarkdown() {}

  /**
   * The summary table: one row per step, the change θ (ratio of the geometric means of the per-run
   * medians) with the interval the verdict rests on.
   */
  public static String summaryTable(ComparisonReport report) {
    StringBuilder md = new StringBuilder();
    String level = levelNote(report) == null ? "" : "¹";
    row(md, "step", "change (θ)", intervalHeader(report) + level, verdictHeader(report), "runs", runsNeededHeader(report));
    row(md, "---", "---:", "---:", "---", "---:", "---:");
    for (StepComparison s : report.steps()) {
      RunLevelEffect m = s.runLevel().median();
      row(md, codeCell(s.step()), Format.changeOf(m.estimate().ratio(), m.estimate().ciDecision()),
          Format.changeInterval(m.estimate().ciDecision()),
          (report.controlItself() ? Format.verdict(s.verdict()) : "**" + Format.verdict(s.verdict()) + "**") + mark(s),
          s.runLevel().counts(),
          m.runsNeeded() == null ? DASH : m.runsNeeded());
    }
    if (!level.isEmpty()) {
      md.append("\n¹ ").append(levelNote(report)).append('\n');
    }
    return md.toString();
  }

  /**
   * The summary table's interval header: {@code 95% interval}. On the a/a control's own page it says
   * {@code descriptive}: the control's verdict, leading the page, is its one call (issue 49).
   */
  public static String intervalHeader(ComparisonReport report) {
    return Format.percent(report.settings().decisionConfidence()) + " interval"
        + (report.controlItself() ? ", descriptive" : "");
  }

  /**
   * The summary table's verdict header. On the a/a control's own page each step's reading is
   * descriptive, not a call: one step alone has too few degrees of freedom to confirm or fault the method.
   */
  public static String verdictHeader(ComparisonReport report) {
    return report.controlItself() ? "reads (descriptive, not a call)" : "verdict";
  }

  /** The level a reader expects of an interval when none is said: 95 %. */
  private static final double USUAL_CONFIDENCE = 0.95;

  /**
   * What an interval's level is, where it is not 95 % ("95.9 % interval" said without a reason reads
   * as a typo; issue 49): the level of the calls, 1 − α, and TOST's 1 − 2α, with α the look's share
   * of the study's in a study run until decided. Null at 95 %.
   */
  public static String levelNote(ComparisonReport report) {
    StatisticsSettings settings = report.settings();
    if (Math.abs(settings.decisionConfidence() - USUAL_CONFIDENCE) < 1e-9) {
      return null;
    }
    String alpha = significant(settings.alpha(), 3);
    return "The intervals are at the level of the calls: 1 − α = " + Format.percent(settings.decisionConfidence())
        + " for faster or slower, 1 − 2α = " + Format.percent(settings.equivalenceConfidence()) + " for equivalent"
        + " (TOST), with α = " + alpha + (report.sequential() == null ? "."
            : ", this look's share of the study's α (" + report.sequential().rule() + "), so that its looks together"
                + " keep the study's error rates.");
  }

  /** What an inconclusive step would need at 80 % power: pairs of runs in a paired design, else runs. */
  public static String runsNeededHeader(ComparisonReport report) {
    return paired(report) ? "pairs needed" : "runs needed";
  }

  /** Whether the steps' θ is paired (a duet, {@code --pair-by}): each step's runs counted in pairs. */
  static boolean paired(ComparisonReport report) {
    return report.steps().stream().anyMatch(s -> s.runLevel().median().paired());
  }

  /** {@code  ⚠ confounded: dead_tuples} after a verdict whose sides ran the step in different table-maintenance states. */
  static String mark(StepComparison s) {
    String mark = Confounder.mark(s.confounders());
    return mark == null ? "" : " ⚠ " + mark;
  }

  /** What a title made of words may hold; anything else (a label's markup, a quote, a bracket) is shown as code. */
  private static final Pattern PLAIN_TITLE = Pattern.compile("[\\p{L}\\p{N} .,:=/_+-]*");

  /**
   * The title, from the runs' labels: as words where it reads as words ("PostgreSQL 17 against 14"), else
   * as code like every other label a user wrote, so that no markup of theirs reaches the heading even escaped.
   */
  static String heading(String title) {
    return PLAIN_TITLE.matcher(title).matches() ? Markdown.text(title) : Markdown.code(title);
  }

  /** The whole report. */
  public static String write(ComparisonReport report) {
    ComparisonTitle title = ComparisonTitle.of(report);
    StringBuilder md = new StringBuilder("# benchlake compare: ").append(heading(title.text())).append("\n\n")
        .append(report.headline()).append("\n\n");
    md.append(Markdown.warnings(report.warnings()));
    if (report.aaControl() != null && !report.headlineHasControl()) {
      md.append(Markdown.text(report.aaControl().sentence())).append("\n\n");
    }
    for (Side side : Side.values()) {
      ComparisonReport.Selection selection = report.selections().get(side);
      md.append("- ").append(capitalized(side.label())).append(": ").append(code(selection.selector())).append(", ")
          .append(runs(selection)).append('\n');
    }
    md.append("- α = ").append(significant(report.settings().alpha(), 3)).append(", margin ±")
        .append(Format.percent(report.settings().margin())).append(", outliers: ").append(report.outliers())
        .append(", correction: ").append(report.settings().correction().label());
    if (report.thresholdS() != null) {
      md.append(", threshold: ").append(duration(report.thresholdS()));
    }
    md.append("\n\n");
    if (paired(report)) {
      md.append("θ is the paired θ (design ").append(report.design()).append("): the Huber M-estimate of the per-pair"
          + " log ratios of the per-run figures (one disturbed round pulls only 1.345 scale units), its interval the t of"
          + " Huber's sandwich standard error (with the CPU set fitted where"
          + " the pairs swap sets: see each step); the runs column counts the complete pairs.\n\n");
    }
    md.append(summaryTable(report));
    if (!report.replicates().isEmpty()) {
      md.append('\n');
      report.replicates().forEach(r -> md.append("> ").append(Markdown.text(r)).append('\n'));
    }
    if (!report.skippedSteps().isEmpty()) {
      md.append("\nNot compared (tasks in one group only): ")
          .append(String.join(", ", report.skippedSteps().stream().map(Markdown::code).toList())).append(".\n");
    }
    if (report.scope() != null) {
      md.append('\n').append(report.scope().markdown());
    }
    for (StepComparison s : report.steps()) {
      step(md, s, report);
    }
    md.append("\n## Methods\n\n");
    report.methods().forEach(m -> md.append("- ").append(m).append('\n'));
    return md.toString();
  }

  private static void step(StringBuilder md, StepComparison s, ComparisonReport report) {
    md.append("\n## Step ").append(code(s.step())).append(": ").append(Format.verdict(s.verdict())).append("\n\n");
    md.append(s.explanation()).append("\n\n");
    if (s.tableHealth() != null) {
      md.append(Markdown.text(s.tableHealth())).append("\n\n");
    }
    if (s.resources() != null) {
      s.resources().markdown(md, s.resourceSentence(), Sides.of("baseline", "candidate"));
    }
    RunLevel r = s.runLevel();
    md.append(r.median().paired()
        ? "Run level, paired (the run is the unit; θ = Huber M-estimate of the per-pair ratios of the per-run figures,"
            + " " + r.counts() + "):\n\n"
        : "Run level (the run is the unit; θ = ratio of the geometric means of the per-run figures):\n\n");
    row(md, "family", "change (θ)", Format.percent(report.settings().decisionConfidence()) + " interval",
        Format.percent(report.settings().equivalenceConfidence()) + " interval", "p (adj.)", "verdict",
        "between-run SD (log)", "within-run SE (log)", runsNeededHeader(report), "two-stage bootstrap 95%");
    row(md, "---", "---:", "---:", "---:", "---:", "---", "---:", "---:", "---:", "---:");
    for (RunLevelEffect e : r.effects()) {
      Estimate estimate = e.estimate();
      row(md, r.label(e), Format.changeOf(estimate.ratio(), estimate.ciDecision()),
          Format.changeInterval(estimate.ciDecision()),
          Format.changeInterval(estimate.ciEquivalence()), e.pAdjusted() == null ? DASH : Format.p(e.pAdjusted()),
          Format.verdict(e.verdict()), estimate.betweenRunSdLog() == null ? DASH : significant(estimate.betweenRunSdLog(), 3),
          e.withinRunSeLog() == null ? DASH : significant(e.withinRunSeLog(), 3),
          e.runsNeeded() == null ? DASH : e.runsNeeded(), Format.changeInterval(e.bootstrapCi95()));
    }
    if (r.pairsSentence() != null) {
      md.append('\n').append(Markdown.text(r.pairsSentence())).append('\n');
    }
    md.append('\n');
    row(md, "run", "group", "median", "p99", "throughput", "error rate");
    row(md, "---", "---", "---:", "---:", "---:", "---:");
    for (Side side : Side.values()) {
      for (RunFigure run : r.runs().get(side)) {
        row(md, codeCell(run.runId()), side.label(), Format.seconds(run.medianS()), Format.seconds(run.p99S()),
            run.throughputPerS() == null ? DASH : significant(run.throughputPerS(), 4) + "/s",
            Format.rate(run.errorRate()));
      }
    }
    RunErrors e = r.errors();
    md.append("\nErrors across runs (Welch's t on the per-run error rates): mean rate ")
        .append(Format.rate(e.meanRate().baseline())).append(" vs ").append(Format.rate(e.meanRate().candidate()))
        .append(e.p() == null ? ", no test (too few runs or no variation)" : ", " + Format.pEquals("p", e.p())).append(".\n");
    GroupStatistics b = s.groups().baseline();
    GroupStatistics c = s.groups().candidate();
    md.append("\n### Within-run (tasks treated as independent), descriptive\n\n");
    md.append("Tasks of one run share its conditions, so these figures and tests describe the pooled tasks; they are"
        + " not evidence about the versions and no verdict rests on them.\n\n");
    row(md, "", "baseline", "candidate");
    row(md, "---", "---:", "---:");
    row(md, "runs", b.runs(), c.runs());
    row(md, "tasks", b.tasks(), c.tasks());
    row(md, "successful", b.ok(), c.ok());
    row(md, "errors", b.errors(), c.errors());
    row(md, "outliers removed", b.outliersRemoved(), c.outliersRemoved());
    figure(md, "min", s, GroupStatistics::minS);
    figure(md, "p50", s, GroupStatistics::p50S);
    figure(md, "p90", s, GroupStatistics::p90S);
    figure(md, "p95", s, GroupStatistics::p95S);
    figure(md, "p99", s, GroupStatistics::p99S);
    figure(md, "p99 (unfiltered)", s, GroupStatistics::unfilteredP99S);
    figure(md, "p99.9", s, GroupStatistics::p999S);
    figure(md, "max", s, GroupStatistics::maxS);
    figure(md, "max (unfiltered)", s, GroupStatistics::unfilteredMaxS);
    figure(md, "mean", s, GroupStatistics::meanS);
    figure(md, "stddev", s, GroupStatistics::stddevS);
    if (report.thresholdS() != null) {
      row(md, "under " + duration(report.thresholdS()), b.underThreshold(), c.underThreshold());
    }
    if (!s.errorCodes().isEmpty()) {
      md.append("\n");
      row(md, "error", "baseline", "candidate");
      row(md, "---", "---:", "---:");
      for (StepComparison.ErrorCount code : s.errorCodes()) {
        row(md, codeCell(code.code()), code.tasks().baseline(), code.tasks().candidate());
      }
    }
    md.append("\n");
    row(md, "test (tasks as independent)", "result");
    row(md, "---", "---");
    TaskTests t = s.tests();
    if (t.onLatencies()) {
      TaskTests.Welch welch = t.welch();
      row(md, "Mann–Whitney U", "U = " + significant(t.mannWhitney().u(), 12) + ", "
          + Format.pEquals("p", t.mannWhitney().p()) + ", " + Format.pEquals("adjusted p", t.mannWhitney().pAdjusted())
          + " (" + t.mannWhitney().method() + ")");
      row(md, "Welch's t", welch.t() == null ? "undefined (fewer than two values or no variance)"
          : "t = " + significant(welch.t(), 4) + ", df = " + significant(welch.df(), 4) + ", " + Format.pEquals("p", welch.p()));
      row(md, "Kolmogorov–Smirnov", "D = " + significant(t.ks().d(), 4) + ", " + Format.pEquals("p", t.ks().p()) + " ("
          + t.ks().method() + ")");
      row(md, "Hodges–Lehmann shift", duration(t.hodgesLehmann().shiftS()) + ", 95% CI "
          + interval(t.hodgesLehmann().ci95S(), true) + " (" + t.hodgesLehmann().method() + ")");
      row(md, "Cliff's δ", significant(t.cliffs().delta(), 3) + " (" + t.cliffs().magnitude() + ")");
      row(md, "pooled median ratio", (t.medianRatio().ratio() == null ? "undefined (zero baseline median)"
          : significant(t.medianRatio().ratio(), 4)) + ", 95% CI " + interval(t.medianRatio().ci95(), false) + " ("
          + t.medianRatio().method() + ")");
    }
    row(md, "Fisher (errors)", Format.pEquals("p", t.fisherErrorsP()));
  }

  private static void figure(StringBuilder md, String name, StepComparison s, Function<GroupStatistics, Double> field) {
    row(md, name, Format.seconds(field.apply(s.groups().baseline())), Format.seconds(field.apply(s.groups().candidate())));
  }

  private static String interval(Range range, boolean inSeconds) {
    if (range == null || range.low() == null) {
      return "unbounded (too few values)";
    }
    return "[" + (inSeconds ? duration(range.low()) : significant(range.low(), 4)) + ", "
        + (inSeconds ? duration(range.high()) : significant(range.high(), 4)) + "]";
  }

  private static String runs(ComparisonReport.Selection selection) {
    int n = selection.runs().size();
    return n + (n == 1 ? " run" : " runs") + " (" + String.join(", ", selection.runs().stream().map(Markdown::code).toList()) + ")";
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
