package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.html.HtmlTemplates;
import dev.benchlake.analysis.html.PageAssets;
import dev.benchlake.analysis.html.ScriptJson;
import static dev.benchlake.analysis.report.Format.change;
import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.significant;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  private static final String DASH = "—";

  private CompareHtml() {}

  /** The page. */
  public static String write(ComparisonReport report, Provenance provenance) {
    return HtmlTemplates.render("compare", view(report, provenance));
  }

  /** Everything the template shows, as text. */
  public record View(PageAssets assets, String title, String dataJson, String pageJs, String baselineSelector,
      String candidateSelector, List<String> baselineRuns, List<String> candidateRuns, String settings,
      String lead, List<Tally> tally, List<SummaryRow> summary, List<StepView> steps, boolean hasSkipped, String skipped,
      boolean hasReplicates, List<String> replicates, Provenance provenance, List<String> methods,
      String decisionLevel, String equivalenceLevel) {}

  /** How many steps got a verdict. */
  public record Tally(String verdict, String css, long count) {}

  public record SummaryRow(String anchor, String step, String change, String interval, String verdict, String css,
      String runs, String runsNeeded) {}

  public record StepView(int index, String anchor, String step, String verdict, String css, String headline,
      String headlineDetail, String explanation, List<FamilyRow> families, List<StatRow> stats, List<TestRow> tests,
      List<RunRow> runs, boolean hasErrors, List<ErrorRow> errors, String errorsAcrossRuns, String outliers,
      String tableHealth, boolean confounded) {}

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
    Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
    for (int i = 0; i < report.steps().size(); i++) {
      StepComparison s = report.steps().get(i);
      counts.merge(s.verdict(), 1L, Long::sum);
      steps.add(step(i, s, report));
      summary.add(summaryRow(i, s));
    }
    List<Tally> tally = new ArrayList<>();
    counts.forEach((verdict, n) -> tally.add(new Tally(Format.verdict(verdict), Format.verdict(verdict), n)));
    String settings = "α = " + significant(report.alpha(), 3) + " · practical margin ±" + Format.percent(report.margin())
        + " · outliers: " + report.outliers() + " · correction across steps: " + report.correction()
        + (report.thresholdS() == null ? "" : " · threshold " + duration(report.thresholdS()));
    return new View(PageAssets.get(), report.candidate().selector() + " vs " + report.baseline().selector(),
        ScriptJson.of(CompareJson.tree(report)), HtmlTemplates.text("compare.js"), report.baseline().selector(),
        report.candidate().selector(), report.baseline().runs(), report.candidate().runs(), settings, lead(report), tally,
        summary, steps, !report.skippedSteps().isEmpty(), String.join(", ", report.skippedSteps()),
        !report.replicates().isEmpty(), report.replicates(), provenance, report.methods(),
        Format.percent(1 - report.alpha()), Format.percent(1 - 2 * report.alpha()));
  }

  /** The verdicts in one paragraph: {@code Slower in 1 of 2 steps: read (θ +17.4% [+9.0%, +26.4%]). …} */
  static String lead(ComparisonReport report) {
    int total = report.steps().size();
    List<String> sentences = new ArrayList<>();
    for (Verdict verdict : List.of(Verdict.SLOWER, Verdict.FASTER, Verdict.EQUIVALENT, Verdict.INCONCLUSIVE)) {
      List<String> steps = report.steps().stream().filter(s -> s.verdict() == verdict)
          .map(s -> s.step() + (s.runLevel().median().ratio() == null ? ""
              : " (θ " + change(s.runLevel().median().ratio() - 1) + " " + Format.changeInterval(s.runLevel().median().ciDecision()) + ")")
              + CompareMarkdown.mark(s))
          .toList();
      if (!steps.isEmpty()) {
        String words = Format.verdict(verdict);
        sentences.add(Character.toUpperCase(words.charAt(0)) + words.substring(1) + " in " + steps.size() + " of " + total
            + (total == 1 ? " step: " : " steps: ") + String.join(", ", steps) + ".");
      }
    }
    return String.join(" ", sentences);
  }

  private static SummaryRow summaryRow(int index, StepComparison s) {
    RunLevelEffect m = s.runLevel().median();
    return new SummaryRow(anchor(index), s.step(), m.ratio() == null ? DASH : change(m.ratio() - 1),
        Format.changeInterval(m.ciDecision()), Format.verdict(s.verdict()) + CompareMarkdown.mark(s),
        Format.verdict(s.verdict()), s.runLevel().counts(),
        m.runsNeeded() == null ? DASH : Integer.toString(m.runsNeeded()));
  }

  private static StepView step(int index, StepComparison s, ComparisonReport report) {
    RunLevelEffect m = s.runLevel().median();
    String headline = m.ratio() == null ? "θ undefined" : "θ " + change(m.ratio() - 1);
    String detail = m.ratio() == null ? m.unavailable() : Format.percent(1 - report.alpha()) + " interval "
        + Format.changeInterval(m.ciDecision()) + " · "
        + s.runLevel().counts() + " runs";
    Set<String> codes = new LinkedHashSet<>(s.baseline().errorsByCode().keySet());
    codes.addAll(s.candidate().errorsByCode().keySet());
    List<ErrorRow> errors = codes.stream().map(code -> new ErrorRow(code,
        s.baseline().errorsByCode().getOrDefault(code, 0L), s.candidate().errorsByCode().getOrDefault(code, 0L))).toList();
    String outliers = "Outlier policy " + report.outliers() + " (fences per run): removed " + s.baseline().outliersRemoved()
        + " baseline and " + s.candidate().outliersRemoved() + " candidate tasks from the latency figures.";
    RunLevel r = s.runLevel();
    String errorsAcrossRuns = "Errors across runs (Welch's t on the per-run error rates): mean rate "
        + rate(r.errors().baselineMeanRate()) + " vs " + rate(r.errors().candidateMeanRate())
        + (r.errors().p() == null ? ", no test (too few runs or no variation)." : ", " + Format.pEquals("p", r.errors().p()) + ".");
    return new StepView(index, anchor(index), s.step(), Format.verdict(s.verdict()) + CompareMarkdown.mark(s),
        Format.verdict(s.verdict()), headline,
        detail, s.explanation(), List.of(family(r.median()), family(r.p99()), family(r.throughput())), stats(s),
        tests(s.tests()), runs(r), !errors.isEmpty(), errors, errorsAcrossRuns, outliers, s.tableHealth(),
        Confounder.anyFlag(s.confounders()));
  }

  private static FamilyRow family(RunLevelEffect e) {
    return new FamilyRow(e.metric(), e.ratio() == null ? DASH : change(e.ratio() - 1), Format.changeInterval(e.ciDecision()),
        Format.changeInterval(e.ciEquivalence()), e.pAdjusted() == null ? DASH : Format.p(e.pAdjusted()), Format.verdict(e.verdict()),
        Format.verdict(e.verdict()), e.betweenRunSdLog() == null ? DASH : significant(e.betweenRunSdLog(), 3),
        e.withinRunSeLog() == null ? DASH : significant(e.withinRunSeLog(), 3),
        e.runsNeeded() == null ? DASH : Integer.toString(e.runsNeeded()), Format.changeInterval(e.bootstrapCi95()));
  }

  private static List<StatRow> stats(StepComparison s) {
    GroupStatistics b = s.baseline();
    GroupStatistics c = s.candidate();
    List<StatRow> rows = new ArrayList<>();
    rows.add(new StatRow("runs", Integer.toString(b.runs()), Integer.toString(c.runs())));
    rows.add(new StatRow("tasks", Long.toString(b.tasks()), Long.toString(c.tasks())));
    rows.add(new StatRow("errors", b.errors() + " (" + rate(b.errorRate()) + ")", c.errors() + " (" + rate(c.errorRate()) + ")"));
    rows.add(new StatRow("outliers removed", Long.toString(b.outliersRemoved()), Long.toString(c.outliersRemoved())));
    rows.add(latency("median (p50)", b, c, GroupStatistics::p50S));
    rows.add(latency("p90", b, c, GroupStatistics::p90S));
    rows.add(latency("p95", b, c, GroupStatistics::p95S));
    rows.add(latency("p99", b, c, GroupStatistics::p99S));
    rows.add(latency("p99 (unfiltered)", b, c, GroupStatistics::unfilteredP99S));
    rows.add(latency("p99.9", b, c, GroupStatistics::p999S));
    rows.add(latency("max", b, c, GroupStatistics::maxS));
    rows.add(latency("max (unfiltered)", b, c, GroupStatistics::unfilteredMaxS));
    rows.add(latency("mean", b, c, GroupStatistics::meanS));
    rows.add(latency("stddev", b, c, GroupStatistics::stddevS));
    return rows;
  }

  private static StatRow latency(String name, GroupStatistics b, GroupStatistics c, Function<GroupStatistics, Double> f) {
    return new StatRow(name, seconds(f.apply(b)), seconds(f.apply(c)));
  }

  private static List<TestRow> tests(Tests t) {
    List<TestRow> rows = new ArrayList<>();
    if (t.mannWhitneyU() != null) {
      rows.add(new TestRow("Mann–Whitney U", "U = " + significant(t.mannWhitneyU(), 12) + ", " + Format.pEquals("p", t.mannWhitneyP())
          + ", " + Format.pEquals("adjusted p", t.pAdjusted()) + " (" + t.mannWhitneyMethod() + ")"));
      rows.add(new TestRow("Welch's t", t.welchT() == null ? "undefined (fewer than two values or no variance)"
          : "t = " + significant(t.welchT(), 4) + ", df = " + significant(t.welchDf(), 4) + ", " + Format.pEquals("p", t.welchP())));
      rows.add(new TestRow("Kolmogorov–Smirnov", "D = " + significant(t.ksD(), 4) + ", " + Format.pEquals("p", t.ksP())
          + " (" + t.ksMethod() + ")"));
      rows.add(new TestRow("Hodges–Lehmann shift", duration(t.hlShiftS()) + ", 95% CI " + interval(t.hlCi95S())
          + " (" + t.hlMethod() + ")"));
      rows.add(new TestRow("Cliff's δ", significant(t.cliffsDelta(), 3) + " (" + t.cliffsMagnitude() + ")"));
      rows.add(new TestRow("pooled median ratio", (t.medianRatio() == null ? "undefined (zero baseline median)"
          : significant(t.medianRatio(), 4)) + ", 95% CI " + ratioCi(t.medianRatioCi95()) + " (" + t.medianRatioMethod() + ")"));
    }
    rows.add(new TestRow("Fisher (errors)", Format.pEquals("p", t.fisherErrorsP())));
    return rows;
  }

  private static List<RunRow> runs(RunLevel r) {
    List<RunRow> rows = new ArrayList<>();
    for (int i = 0; i < r.baselineRunIds().size(); i++) {
      rows.add(new RunRow(r.baselineRunIds().get(i), "baseline", "baseline", seconds(r.baselineMediansS().get(i)),
          seconds(r.baselineP99S().get(i)), perSecond(r.baselineThroughputPerS().get(i)), rate(r.baselineErrorRates().get(i))));
    }
    for (int i = 0; i < r.candidateRunIds().size(); i++) {
      rows.add(new RunRow(r.candidateRunIds().get(i), "candidate", "candidate", seconds(r.candidateMediansS().get(i)),
          seconds(r.candidateP99S().get(i)), perSecond(r.candidateThroughputPerS().get(i)), rate(r.candidateErrorRates().get(i))));
    }
    return rows;
  }

  private static String anchor(int index) {
    return "step-" + index;
  }

  private static String seconds(Double value) {
    return value == null ? DASH : duration(value);
  }

  private static String perSecond(Double value) {
    return value == null ? DASH : significant(value, 4) + "/s";
  }

  private static String rate(Double rate) {
    return rate == null ? DASH : significant(rate * 100, 2) + "%";
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
