package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.html.HtmlTemplates;
import dev.benchlake.analysis.html.PageAssets;
import dev.benchlake.analysis.html.ScriptJson;
import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.significant;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.ResourceFigures;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * report.html: the {@link ComparisonReport} as one self-contained page. The verdicts come first
 * with θ and its interval per step (a forest plot with the margin band), then per step the
 * run-level families, the per-run figures, the charts (latency ECDF and histogram of both groups,
 * per-run medians and throughputs, errors by code) and, set apart, the within-run descriptive
 * statistics and tests; the page ends with what reproduces it.
 *
 * <p>Every number on the page is a number of the report model, formatted by {@link Format} as in
 * report.md: this class computes no statistic. Tables are rendered here, through an escaping
 * template; charts are drawn in the browser by {@code compare.js} from report.json's tree,
 * embedded with {@link ScriptJson}.
 */
public final class CompareHtml {
  private static final String DASH = Format.DASH;

  private CompareHtml() {}

  /** The page. */
  public static String write(ComparisonReport report, Provenance provenance) {
    return HtmlTemplates.render("compare", view(report, provenance));
  }

  /** Everything the template shows, as text. */
  public record View(PageAssets assets, String title, String dataJson, String pageJs, String baselineSelector,
      String candidateSelector, List<String> baselineRuns, List<String> candidateRuns, String settings,
      String lead, List<Tally> tally, List<SummaryRow> summary, List<StepView> steps, boolean hasSkipped, String skipped,
      boolean hasWarnings, List<String> warnings, Provenance provenance, List<String> methods,
      String decisionLevel, String equivalenceLevel, String betterSide, String forestAxis, String thetaCaption,
      Scope scope, String candidateTitle, String baselineTitle, String levelNote, String runsNeededHeader,
      String intervalHeader, String verdictHeader) {}

  /** How many steps got a verdict. */
  public record Tally(String verdict, String css, long count) {}

  public record SummaryRow(String anchor, String step, String change, String interval, String verdict, String css,
      String runs, String runsNeeded) {}

  /** @param direction which side of 1 is better for the θ of the card: {@code below 1 is better (lower latency)} */
  public record StepView(int index, String anchor, String step, String verdict, String css, String headline,
      String headlineDetail, String direction, String explanation, List<FamilyRow> families, List<StatRow> stats, List<TestRow> tests,
      List<RunRow> runs, boolean hasErrors, List<ErrorRow> errors, String errorsAcrossRuns, String outliers,
      String tableHealth, boolean confounded, String pairs, ResourceFigures.HtmlView resources) {}

  /** One run-level family: θ, its intervals, the adjusted p, the verdict and the variance components. */
  public record FamilyRow(String metric, String change, String ci95, String ci90, String pAdjusted, String verdict,
      String css, String betweenRunSd, String withinRunSe, String runsNeeded, String bootstrap) {}

  /** One descriptive statistic of both groups' pooled tasks. */
  public record StatRow(String name, String baseline, String candidate) {}

  public record TestRow(String name, String result) {}

  public record RunRow(String runId, String group, String groupCss, String median, String p99, String throughput,
      String errorRate) {}

  public record ErrorRow(String code, long baseline, long candidate) {}

  static View view(ComparisonReport report, Provenance provenance) {
    List<StepView> steps = new ArrayList<>();
    List<SummaryRow> summary = new ArrayList<>();
    for (int i = 0; i < report.steps().size(); i++) {
      StepComparison s = report.steps().get(i);
      steps.add(step(i, s, report));
      summary.add(summaryRow(i, s));
    }
    List<Tally> tally = report.tally().counts().stream()
        .map(c -> new Tally(Format.verdict(c.verdict()), Format.verdict(c.verdict()), c.n())).toList();
    StatisticsSettings settings = report.settings();
    String settingsLine = "α = " + significant(settings.alpha(), 3) + " · practical margin ±"
        + Format.percent(settings.margin()) + " · outliers: " + report.outliers() + " · correction across steps: "
        + settings.correction().label() + (report.thresholdS() == null ? "" : " · threshold " + duration(report.thresholdS()));
    Sides<ComparisonReport.Selection> selections = report.selections();
    ComparisonTitle title = ComparisonTitle.of(report);
    return new View(PageAssets.get(), title.text(),
        ScriptJson.of(CompareJson.tree(report)), HtmlTemplates.text("compare.js"), selections.baseline().selector(),
        selections.candidate().selector(), selections.baseline().runs(), selections.candidate().runs(), settingsLine,
        lead(report), tally, summary, steps, !report.skippedSteps().isEmpty(), String.join(", ", report.skippedSteps()),
        !warnings(report).isEmpty(), warnings(report), provenance, report.methods(),
        Format.percent(settings.decisionConfidence()), Format.percent(settings.equivalenceConfidence()),
        betterSide(), "θ, candidate / baseline (log scale): " + betterSide(),
        Pairing.UNPAIRED_DESIGN.equals(report.design()) ? "ratio of the geometric means of the per-run medians"
            : "paired θ (design " + report.design() + "): Huber M-estimate of the per-pair ratios of the per-run medians",
        report.scope(), title.candidate(), title.baseline(), CompareMarkdown.levelNote(report),
        CompareMarkdown.runsNeededHeader(report), CompareMarkdown.intervalHeader(report),
        CompareMarkdown.verdictHeader(report));
  }

  /** The report's warnings first (⚠), then what the server starts say of the runs' independence. */
  private static List<String> warnings(ComparisonReport report) {
    List<String> all = new ArrayList<>(report.warnings().stream().map(w -> "⚠ " + w).toList());
    all.addAll(report.replicates());
    return all;
  }

  /** Which side of 1 is better for the verdict's θ: the median latency's, lower is better. */
  static String betterSide() {
    return Family.MEDIAN.direction().betterSideOfOne() + " (" + Family.MEDIAN.direction().better().replace(" is better", "")
        + " latency)";
  }

  /**
   * The calls, then the verdicts with their figures: {@code Calls: 1 slower, 1 inconclusive (2
   * steps). Slower in 1 of 2 steps: read (θ +17.4% [+9.0%, +26.4%]). …}
   */
  static String lead(ComparisonReport report) {
    int total = report.steps().size();
    List<String> sentences = new ArrayList<>();
    for (Verdict verdict : List.of(Verdict.SLOWER, Verdict.FASTER, Verdict.EQUIVALENT, Verdict.INCONCLUSIVE)) {
      List<String> steps = report.steps().stream().filter(s -> s.verdict() == verdict)
          .map(s -> s.step() + (s.runLevel().median().estimate().ratio() == null ? ""
              : " (θ " + change(s.runLevel().median().estimate()) + " "
                  + Format.changeInterval(s.runLevel().median().estimate().ciDecision()) + ")")
              + CompareMarkdown.mark(s))
          .toList();
      if (!steps.isEmpty()) {
        String words = Format.verdict(verdict);
        sentences.add(Character.toUpperCase(words.charAt(0)) + words.substring(1) + " in " + steps.size() + " of " + total
            + (total == 1 ? " step: " : " steps: ") + String.join(", ", steps) + ".");
      }
    }
    String control = report.aaControl() != null && !report.headlineHasControl() ? " " + report.aaControl().sentence()
        : "";
    return report.headline() + " " + String.join(" ", sentences) + control;
  }

  private static SummaryRow summaryRow(int index, StepComparison s) {
    RunLevelEffect m = s.runLevel().median();
    return new SummaryRow(anchor(index), s.step(), change(m.estimate()), Format.changeInterval(m.estimate().ciDecision()),
        Format.verdict(s.verdict()) + CompareMarkdown.mark(s), Format.verdict(s.verdict()), s.runLevel().counts(),
        m.runsNeeded() == null ? DASH : Integer.toString(m.runsNeeded()));
  }

  private static StepView step(int index, StepComparison s, ComparisonReport report) {
    Estimate m = s.runLevel().median().estimate();
    String theta = s.runLevel().median().paired() ? "paired θ" : "θ";
    String headline = m.ratio() == null ? theta + " undefined" : theta + " " + change(m);
    String detail = m.ratio() == null ? s.runLevel().median().unavailable()
        : Format.percent(report.settings().decisionConfidence()) + " interval " + Format.changeInterval(m.ciDecision())
            + " · " + s.runLevel().replicates();
    List<ErrorRow> errors = s.errorCodes().stream()
        .map(e -> new ErrorRow(e.code(), e.tasks().baseline(), e.tasks().candidate())).toList();
    Sides<GroupStatistics> groups = s.groups();
    String outliers = "Outlier policy " + report.outliers() + " (fences per run): removed "
        + groups.baseline().outliersRemoved() + " baseline and " + groups.candidate().outliersRemoved()
        + " candidate tasks from the latency figures.";
    RunLevel r = s.runLevel();
    String errorsAcrossRuns = "Errors across runs (Welch's t on the per-run error rates): mean rate "
        + Format.rate(r.errors().meanRate().baseline()) + " vs " + Format.rate(r.errors().meanRate().candidate())
        + (r.errors().p() == null ? ", no test (too few runs or no variation)." : ", " + Format.pEquals("p", r.errors().p()) + ".");
    return new StepView(index, anchor(index), s.step(), Format.verdict(s.verdict()) + CompareMarkdown.mark(s),
        Format.verdict(s.verdict()), headline, detail, betterSide(), s.explanation(),
        r.effects().stream().map(e -> family(r, e)).toList(), stats(groups), tests(s.tests()), runs(r),
        !errors.isEmpty(), errors, errorsAcrossRuns, outliers, s.tableHealth(), Confounder.anyFlag(s.confounders()),
        r.pairsSentence(), s.resources() == null ? null
            : s.resources().html(s.resourceSentence(), Sides.of("baseline", "candidate")));
  }

  private static FamilyRow family(RunLevel r, RunLevelEffect e) {
    Estimate estimate = e.estimate();
    return new FamilyRow(r.label(e), change(estimate), Format.changeInterval(estimate.ciDecision()),
        Format.changeInterval(estimate.ciEquivalence()), e.pAdjusted() == null ? DASH : Format.p(e.pAdjusted()),
        Format.verdict(e.verdict()), Format.verdict(e.verdict()),
        estimate.betweenRunSdLog() == null ? DASH : significant(estimate.betweenRunSdLog(), 3),
        e.withinRunSeLog() == null ? DASH : significant(e.withinRunSeLog(), 3),
        e.runsNeeded() == null ? DASH : Integer.toString(e.runsNeeded()), Format.changeInterval(e.bootstrapCi95()));
  }

  private static List<StatRow> stats(Sides<GroupStatistics> groups) {
    GroupStatistics b = groups.baseline();
    GroupStatistics c = groups.candidate();
    List<StatRow> rows = new ArrayList<>();
    rows.add(new StatRow("runs", Integer.toString(b.runs()), Integer.toString(c.runs())));
    rows.add(new StatRow("tasks", Long.toString(b.tasks()), Long.toString(c.tasks())));
    rows.add(new StatRow("errors", b.errors() + " (" + Format.rate(b.errorRate()) + ")",
        c.errors() + " (" + Format.rate(c.errorRate()) + ")"));
    rows.add(new StatRow("outliers removed", Long.toString(b.outliersRemoved()), Long.toString(c.outliersRemoved())));
    rows.add(latency("median (p50)", groups, GroupStatistics::p50S));
    rows.add(latency("p90", groups, GroupStatistics::p90S));
    rows.add(latency("p95", groups, GroupStatistics::p95S));
    rows.add(latency("p99", groups, GroupStatistics::p99S));
    rows.add(latency("p99 (unfiltered)", groups, GroupStatistics::unfilteredP99S));
    rows.add(latency("p99.9", groups, GroupStatistics::p999S));
    rows.add(latency("max", groups, GroupStatistics::maxS));
    rows.add(latency("max (unfiltered)", groups, GroupStatistics::unfilteredMaxS));
    rows.add(latency("mean", groups, GroupStatistics::meanS));
    rows.add(latency("stddev", groups, GroupStatistics::stddevS));
    return rows;
  }

  private static StatRow latency(String name, Sides<GroupStatistics> groups, Function<GroupStatistics, Double> f) {
    return new StatRow(name, Format.seconds(f.apply(groups.baseline())), Format.seconds(f.apply(groups.candidate())));
  }

  private static List<TestRow> tests(TaskTests t) {
    List<TestRow> rows = new ArrayList<>();
    if (t.onLatencies()) {
      TaskTests.Welch welch = t.welch();
      rows.add(new TestRow("Mann–Whitney U", "U = " + significant(t.mannWhitney().u(), 12) + ", "
          + Format.pEquals("p", t.mannWhitney().p()) + ", " + Format.pEquals("adjusted p", t.mannWhitney().pAdjusted())
          + " (" + t.mannWhitney().method() + ")"));
      rows.add(new TestRow("Welch's t", welch.t() == null ? "undefined (fewer than two values or no variance)"
          : "t = " + significant(welch.t(), 4) + ", df = " + significant(welch.df(), 4) + ", " + Format.pEquals("p", welch.p())));
      rows.add(new TestRow("Kolmogorov–Smirnov", "D = " + significant(t.ks().d(), 4) + ", " + Format.pEquals("p", t.ks().p())
          + " (" + t.ks().method() + ")"));
      rows.add(new TestRow("Hodges–Lehmann shift", duration(t.hodgesLehmann().shiftS()) + ", 95% CI "
          + interval(t.hodgesLehmann().ci95S()) + " (" + t.hodgesLehmann().method() + ")"));
      rows.add(new TestRow("Cliff's δ", significant(t.cliffs().delta(), 3) + " (" + t.cliffs().magnitude() + ")"));
      rows.add(new TestRow("pooled median ratio", (t.medianRatio().ratio() == null ? "undefined (zero baseline median)"
          : significant(t.medianRatio().ratio(), 4)) + ", 95% CI " + ratioCi(t.medianRatio().ci95()) + " ("
          + t.medianRatio().method() + ")"));
    }
    rows.add(new TestRow("Fisher (errors)", Format.pEquals("p", t.fisherErrorsP())));
    return rows;
  }

  private static List<RunRow> runs(RunLevel r) {
    List<RunRow> rows = new ArrayList<>();
    for (Side side : Side.values()) {
      for (RunFigure run : r.runs().get(side)) {
        rows.add(new RunRow(run.runId(), side.label(), side.label(), Format.seconds(run.medianS()),
            Format.seconds(run.p99S()), perSecond(run.throughputPerS()), Format.rate(run.errorRate())));
      }
    }
    return rows;
  }

  /** θ as a change, {@code +12.3%}, or too noisy to say; a dash when undefined. */
  private static String change(Estimate e) {
    return Format.changeOf(e.ratio(), e.ciDecision());
  }

  private static String anchor(int index) {
    return "step-" + index;
  }

  private static String perSecond(Double value) {
    return value == null ? DASH : significant(value, 4) + "/s";
  }

  private static String ratioCi(Range range) {
    if (range == null || range.low() == null || range.high() == null) {
      return DASH;
    }
    return "[" + significant(range.low(), 4) + ", " + significant(range.high(), 4) + "]";
  }

  private static String interval(Range range) {
    if (range == null || range.low() == null || range.high() == null) {
      return "unbounded (too few values)";
    }
    return "[" + duration(range.low()) + ", " + duration(range.high()) + "]";
  }
}
