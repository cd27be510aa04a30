package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.significant;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * report.md: the summary table (what {@code benchlake compare} prints), then each step in detail
 * and the methods. Numbers are formatted by {@link Format}, so the text is the same everywhere.
 */
public final class CompareMarkdown {
  private static final String DASH = "—";

  private CompareMarkdown() {}

  /**
   * The summary table: one row per step, the change θ (ratio of the geometric means of the per-run
   * medians) with the 95 % interval the verdict rests on.
   */
  public static String summaryTable(ComparisonReport report) {
    StringBuilder md = new StringBuilder();
    row(md, "step", "change (θ)", Format.percent(1 - report.alpha()) + " interval", "verdict", "runs", "runs needed");
    row(md, "---", "---:", "---:", "---", "---:", "---:");
    for (StepComparison s : report.steps()) {
      RunLevelEffect m = s.runLevel().median();
      row(md, code(s.step()), m.ratio() == null ? DASH : Format.change(m.ratio() - 1), Format.changeInterval(m.ciDecision()),
          "**" + Format.verdict(s.verdict()) + "**" + mark(s), s.runLevel().counts(),
          m.runsNeeded() == null ? DASH : m.runsNeeded());
    }
    return md.toString();
  }

  /** {@code  ⚠ confounded: dead_tuples} after a verdict whose groups ran the step in different table-maintenance states. */
  static String mark(StepComparison s) {
    String mark = Confounder.mark(s.confounders());
    return mark == null ? "" : " ⚠ " + mark;
  }

  /** The whole report. */
  public static String write(ComparisonReport report) {
    StringBuilder md = new StringBuilder("# benchlake compare\n\n");
    md.append("- Baseline: ").append(code(report.baseline().selector())).append(", ").append(runs(report.baseline())).append('\n');
    md.append("- Candidate: ").append(code(report.candidate().selector())).append(", ").append(runs(report.candidate())).append('\n');
    md.append("- α = ").append(significant(report.alpha(), 3)).append(", margin ±").append(Format.percent(report.margin()))
        .append(", outliers: ").append(report.outliers()).append(", correction: ").append(report.correction());
    if (report.thresholdS() != null) {
      md.append(", threshold: ").append(duration(report.thresholdS()));
    }
    md.append("\n\n").append(summaryTable(report));
    if (!report.replicates().isEmpty()) {
      md.append('\n');
      report.replicates().forEach(r -> md.append("> ").append(r).append('\n'));
    }
    if (!report.skippedSteps().isEmpty()) {
      md.append("\nNot compared (tasks in one group only): ")
          .append(String.join(", ", report.skippedSteps().stream().map(CompareMarkdown::code).toList())).append(".\n");
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
      md.append(s.tableHealth().replace("|", "\\|")).append("\n\n");
    }
    RunLevel r = s.runLevel();
    md.append("Run level (the run is the unit; θ = ratio of the geometric means of the per-run figures):\n\n");
    row(md, "family", "change (θ)", Format.percent(1 - report.alpha()) + " interval",
        Format.percent(1 - 2 * report.alpha()) + " interval", "p (adj.)", "verdict", "between-run SD (log)",
        "within-run SE (log)", "runs needed", "two-stage bootstrap 95%");
    row(md, "---", "---:", "---:", "---:", "---:", "---", "---:", "---:", "---:", "---:");
    for (RunLevelEffect e : List.of(r.median(), r.p99(), r.throughput())) {
      row(md, e.metric(), e.ratio() == null ? DASH : Format.change(e.ratio() - 1), Format.changeInterval(e.ciDecision()),
          Format.changeInterval(e.ciEquivalence()), e.pAdjusted() == null ? DASH : Format.p(e.pAdjusted()), Format.verdict(e.verdict()),
          e.betweenRunSdLog() == null ? DASH : significant(e.betweenRunSdLog(), 3),
          e.withinRunSeLog() == null ? DASH : significant(e.withinRunSeLog(), 3),
          e.runsNeeded() == null ? DASH : e.runsNeeded(), Format.changeInterval(e.bootstrapCi95()));
    }
    md.append('\n');
    row(md, "run", "group", "median", "p99", "throughput", "error rate");
    row(md, "---", "---", "---:", "---:", "---:", "---:");
    runRows(md, r.baselineRunIds(), "baseline", r.baselineMediansS(), r.baselineP99S(), r.baselineThroughputPerS(),
        r.baselineErrorRates());
    runRows(md, r.candidateRunIds(), "candidate", r.candidateMediansS(), r.candidateP99S(), r.candidateThroughputPerS(),
        r.candidateErrorRates());
    RunErrors e = r.errors();
    md.append("\nErrors across runs (Welch's t on the per-run error rates): mean rate ")
        .append(rate(e.baselineMeanRate())).append(" vs ").append(rate(e.candidateMeanRate()))
        .append(e.p() == null ? ", no test (too few runs or no variation)" : ", " + Format.pEquals("p", e.p())).append(".\n");
    GroupStatistics b = s.baseline();
    GroupStatistics c = s.candidate();
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
    figure(md, "min", b, c, GroupStatistics::minS);
    figure(md, "p50", b, c, GroupStatistics::p50S);
    figure(md, "p90", b, c, GroupStatistics::p90S);
    figure(md, "p95", b, c, GroupStatistics::p95S);
    figure(md, "p99", b, c, GroupStatistics::p99S);
    figure(md, "p99 (unfiltered)", b, c, GroupStatistics::unfilteredP99S);
    figure(md, "p99.9", b, c, GroupStatistics::p999S);
    figure(md, "max", b, c, GroupStatistics::maxS);
    figure(md, "max (unfiltered)", b, c, GroupStatistics::unfilteredMaxS);
    figure(md, "mean", b, c, GroupStatistics::meanS);
    figure(md, "stddev", b, c, GroupStatistics::stddevS);
    if (report.thresholdS() != null) {
      row(md, "under " + duration(report.thresholdS()), b.underThreshold(), c.underThreshold());
    }
    if (!b.errorsByCode().isEmpty() || !c.errorsByCode().isEmpty()) {
      md.append("\n");
      row(md, "error", "baseline", "candidate");
      row(md, "---", "---:", "---:");
      java.util.Set<String> codes = new java.util.LinkedHashSet<>(b.errorsByCode().keySet());
      codes.addAll(c.errorsByCode().keySet());
      for (String code : codes) {
        row(md, code(code), b.errorsByCode().getOrDefault(code, 0L), c.errorsByCode().getOrDefault(code, 0L));
      }
    }
    Tests t = s.tests();
    md.append("\n");
    row(md, "test (tasks as independent)", "result");
    row(md, "---", "---");
    if (t.mannWhitneyU() != null) {
      row(md, "Mann–Whitney U", "U = " + significant(t.mannWhitneyU(), 12) + ", " + Format.pEquals("p", t.mannWhitneyP())
          + ", " + Format.pEquals("adjusted p", t.pAdjusted()) + " (" + t.mannWhitneyMethod() + ")");
      row(md, "Welch's t", t.welchT() == null ? "undefined (fewer than two values or no variance)"
          : "t = " + significant(t.welchT(), 4) + ", df = " + significant(t.welchDf(), 4) + ", " + Format.pEquals("p", t.welchP()));
      row(md, "Kolmogorov–Smirnov", "D = " + significant(t.ksD(), 4) + ", " + Format.pEquals("p", t.ksP()) + " ("
          + t.ksMethod() + ")");
      row(md, "Hodges–Lehmann shift", duration(t.hlShiftS()) + ", 95% CI " + interval(t.hlCi95S(), true)
          + " (" + t.hlMethod() + ")");
      row(md, "Cliff's δ", significant(t.cliffsDelta(), 3) + " (" + t.cliffsMagnitude() + ")");
      row(md, "pooled median ratio", (t.medianRatio() == null ? "undefined (zero baseline median)" : significant(t.medianRatio(), 4))
          + ", 95% CI " + interval(t.medianRatioCi95(), false) + " (" + t.medianRatioMethod() + ")");
    }
    row(md, "Fisher (errors)", Format.pEquals("p", t.fisherErrorsP()));
  }

  private static void runRows(StringBuilder md, List<String> ids, String group, List<Double> medians, List<Double> p99s,
      List<Double> throughputs, List<Double> errorRates) {
    for (int i = 0; i < ids.size(); i++) {
      Double throughput = throughputs.get(i);
      row(md, code(ids.get(i)), group, seconds(medians.get(i)), seconds(p99s.get(i)),
          throughput == null ? DASH : significant(throughput, 4) + "/s", rate(errorRates.get(i)));
    }
  }

  private static String rate(Double rate) {
    return rate == null ? DASH : significant(rate * 100, 2) + "%";
  }

  private static void figure(StringBuilder md, String name, GroupStatistics b, GroupStatistics c,
      Function<GroupStatistics, Double> field) {
    row(md, name, seconds(field.apply(b)), seconds(field.apply(c)));
  }

  private static String seconds(Double value) {
    return value == null ? DASH : duration(value);
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
    return n + (n == 1 ? " run" : " runs") + " (" + String.join(", ", selection.runs().stream().map(CompareMarkdown::code).toList()) + ")";
  }

  /**
   * Inline code that shows {@code text} as it is, whatever it holds (a label, a step name, a run
   * id or an error code come from users' files): HTML inside a code span is not rendered, a
   * control character is written as its escape ({@code \n}, {@code \r}, {@code \t},
   * {@code \u0000}) so a line or a table row never breaks, {@code |} is {@code \|} (GFM tables
   * unescape it even in code), and the fence has more backticks than any run inside.
   */
  static String code(String text) {
    StringBuilder body = new StringBuilder(text.length() + 8);
    int longestRun = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      run = c == '`' ? run + 1 : 0;
      longestRun = Math.max(longestRun, run);
      switch (c) {
        case '|' -> body.append("\\|");
        case '\n' -> body.append("\\n");
        case '\r' -> body.append("\\r");
        case '\t' -> body.append("\\t");
        default -> {
          if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
            body.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            body.append(c);
          }
        }
      }
    }
    String fence = "`".repeat(longestRun + 1);
    // CommonMark strips one space from each end of a code span that starts and ends with one (and is
    // not all spaces): pad such a body, and one that starts or ends with a backtick, so it shows whole.
    boolean spaces = !body.isEmpty() && body.charAt(0) == ' ' && body.charAt(body.length() - 1) == ' '
        && !body.chars().allMatch(c -> c == ' ');
    boolean pad = body.isEmpty() || spaces || body.charAt(0) == '`' || body.charAt(body.length() - 1) == '`';
    String padding = pad ? " " : "";
    return fence + padding + body + padding + fence;
  }

  private static void row(StringBuilder md, Object... cells) {
    md.append('|');
    for (Object cell : cells) {
      md.append(' ').append(cell == null ? DASH : cell.toString().replace("\n", " ")).append(" |");
    }
    md.append('\n');
  }
}
