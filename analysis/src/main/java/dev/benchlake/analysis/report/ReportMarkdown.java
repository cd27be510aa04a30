package dev.benchlake.analysis.report;

import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.significant;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * report.md: the summary table (what {@code benchlake compare} prints), then each step in detail
 * and the methods. Numbers are formatted by {@link Format}, so the text is the same everywhere.
 */
public final class ReportMarkdown {
  private static final String DASH = "—";

  private ReportMarkdown() {}

  /** The summary table: one row per step. */
  public static String summaryTable(ComparisonReport report) {
    StringBuilder md = new StringBuilder();
    row(md, "step", "baseline p50", "candidate p50", "median change", "p (adj.)", "Cliff's δ", "runs", "verdict");
    row(md, "---", "---:", "---:", "---:", "---:", "---:", "---:", "---");
    for (StepComparison s : report.steps()) {
      Tests t = s.tests();
      row(md, code(s.step()), seconds(s.baseline().p50S()), seconds(s.candidate().p50S()),
          t.medianRatio() == null ? DASH : Format.change(t.medianRatio() - 1),
          t.pAdjusted() == null ? DASH : Format.p(t.pAdjusted()),
          t.cliffsDelta() == null ? DASH : significant(t.cliffsDelta(), 2) + " (" + t.cliffsMagnitude() + ")",
          s.runLevel().baselineMediansS().size() + " vs " + s.runLevel().candidateMediansS().size(),
          "**" + s.verdict().label() + "**");
    }
    return md.toString();
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
    if (!report.skippedSteps().isEmpty()) {
      md.append("\nNot compared (tasks in one group only): ")
          .append(String.join(", ", report.skippedSteps().stream().map(ReportMarkdown::code).toList())).append(".\n");
    }
    for (StepComparison s : report.steps()) {
      step(md, s, report);
    }
    md.append("\n## Methods\n\n");
    report.methods().forEach(m -> md.append("- ").append(m).append('\n'));
    return md.toString();
  }

  private static void step(StringBuilder md, StepComparison s, ComparisonReport report) {
    md.append("\n## Step ").append(code(s.step())).append(": ").append(s.verdict().label()).append("\n\n");
    md.append(s.explanation()).append("\n\n");
    GroupStatistics b = s.baseline();
    GroupStatistics c = s.candidate();
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
    figure(md, "p99.9", b, c, GroupStatistics::p999S);
    figure(md, "max", b, c, GroupStatistics::maxS);
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
    row(md, "test", "result");
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
      row(md, "median ratio", (t.medianRatio() == null ? "undefined (zero baseline median)" : significant(t.medianRatio(), 4))
          + ", 95% CI " + interval(t.medianRatioCi95(), false) + " (" + t.medianRatioMethod() + ")");
    }
    row(md, "Fisher (errors)", Format.pEquals("p", t.fisherErrorsP()));
    RunLevel r = s.runLevel();
    md.append("\nRun level (per-run medians");
    if (r.p() != null) {
      md.append("; exact Mann–Whitney ").append(Format.pEquals("p", r.p())).append(", ")
          .append(Format.pEquals("adjusted p", r.pAdjusted()));
    }
    md.append("; ").append(r.enoughRuns() ? "enough runs"
        : "not enough runs: " + r.runsNeeded() + " per group needed"
            + (r.smallestPossibleP() == null ? "" : ", the smallest possible p is " + Format.p(r.smallestPossibleP())))
        .append("):\n\n");
    row(md, "run", "group", "median", "throughput");
    row(md, "---", "---", "---:", "---:");
    runRows(md, r.baselineRunIds(), "baseline", r.baselineMediansS(), r.baselineThroughputPerS());
    runRows(md, r.candidateRunIds(), "candidate", r.candidateMediansS(), r.candidateThroughputPerS());
  }

  private static void runRows(StringBuilder md, List<String> ids, String group, List<Double> medians, List<Double> throughputs) {
    for (int i = 0; i < ids.size(); i++) {
      Double throughput = throughputs.get(i);
      row(md, code(ids.get(i)), group, duration(medians.get(i)),
          throughput == null ? DASH : significant(throughput, 4) + "/s");
    }
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
    return n + (n == 1 ? " run" : " runs") + " (" + String.join(", ", selection.runs().stream().map(ReportMarkdown::code).toList()) + ")";
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
