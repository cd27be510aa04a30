package dev.benchlake.analysis.html;

import static dev.benchlake.analysis.report.Format.change;
import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.significant;

import dev.benchlake.analysis.report.ComparisonReport;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.GroupStatistics;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.ReportJson;
import dev.benchlake.analysis.report.RunLevel;
import dev.benchlake.analysis.report.StepComparison;
import dev.benchlake.analysis.report.Tests;
import dev.benchlake.analysis.report.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * report.html: the {@link ComparisonReport} as one self-contained page. The verdicts come first,
 * then per step the statistics side by side (with the winner, whether the difference is
 * significant and how big), the charts (latency ECDF and histogram of both groups, per-run medians
 * and throughputs, errors by code) and the tests; the page ends with what reproduces it.
 *
 * <p>Tables are rendered here, through an escaping template; charts are drawn in the browser by
 * {@code compare.js} from report.json's tree, embedded with {@link ScriptJson}.
 */
public final class CompareHtml {
  private static final String DASH = "—";
  private static final String TIE = "tie";

  private CompareHtml() {}

  /** The page. */
  public static String write(ComparisonReport report, Provenance provenance) {
    return HtmlTemplates.render("compare", view(report, provenance));
  }

  /** Everything the template shows, as text. */
  public record View(PageAssets assets, String title, String dataJson, String pageJs, String baselineSelector,
      String candidateSelector, List<String> baselineRuns, List<String> candidateRuns, String settings,
      String lead, List<Tally> tally, List<SummaryRow> summary, List<StepView> steps, boolean hasSkipped, String skipped,
      Provenance provenance, List<String> methods) {}

  /** How many steps got a verdict. */
  public record Tally(String verdict, String css, long count) {}

  public record SummaryRow(String anchor, String step, String baselineP50, String candidateP50, String change,
      String ratioCi, String pAdjusted, String cliffsDelta, String runs, String verdict, String css) {}

  public record StepView(int index, String anchor, String step, String verdict, String css, String headline,
      String headlineDetail, String explanation, List<StatRow> stats, List<TestRow> tests, List<RunRow> runs,
      boolean hasErrors, List<ErrorRow> errors, String outliers, String runLevel) {}

  /**
   * One statistic of both groups.
   *
   * @param winner {@code baseline}, {@code candidate}, {@code tie} (within the margin) or a dash
   * @param significance the test of this statistic, when there is one
   */
  public record StatRow(String name, String baseline, String candidate, String change, String winner,
      String winnerCss, String significance, String significanceCss) {}

  public record TestRow(String name, String result) {}

  public record RunRow(String runId, String group, String groupCss, String median, String throughput) {}

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
    counts.forEach((verdict, n) -> tally.add(new Tally(words(verdict), verdict.label(), n)));
    String settings = "α = " + significant(report.alpha(), 3) + " · practical margin ±" + Format.percent(report.margin())
        + " · outliers: " + report.outliers() + " · correction across steps: " + report.correction()
        + (report.thresholdS() == null ? "" : " · threshold " + duration(report.thresholdS()));
    return new View(PageAssets.get(), report.candidate().selector() + " vs " + report.baseline().selector(),
        ScriptJson.of(ReportJson.tree(report)), HtmlTemplates.text("compare.js"), report.baseline().selector(),
        report.candidate().selector(), report.baseline().runs(), report.candidate().runs(), settings, lead(report), tally,
        summary,
        steps, !report.skippedSteps().isEmpty(), String.join(", ", report.skippedSteps()), provenance, report.methods());
  }

  /** The verdicts in one paragraph: {@code Slower in 1 of 2 steps: read (median +17.4%). …} */
  static String lead(ComparisonReport report) {
    int total = report.steps().size();
    List<String> sentences = new ArrayList<>();
    for (Verdict verdict : List.of(Verdict.SLOWER, Verdict.FASTER, Verdict.SIGNIFICANT_BUT_NEGLIGIBLE,
        Verdict.NO_SIGNIFICANT_DIFFERENCE, Verdict.INCONCLUSIVE)) {
      List<String> steps = report.steps().stream().filter(s -> s.verdict() == verdict)
          .map(s -> s.step() + (s.tests().medianRatio() == null ? "" : " (median " + change(s.tests().medianRatio() - 1) + ")"))
          .toList();
      if (!steps.isEmpty()) {
        String words = words(verdict);
        sentences.add(Character.toUpperCase(words.charAt(0)) + words.substring(1) + " in " + steps.size() + " of " + total
            + (total == 1 ? " step: " : " steps: ") + String.join(", ", steps) + ".");
      }
    }
    return String.join(" ", sentences);
  }

  private static SummaryRow summaryRow(int index, StepComparison s) {
    Tests t = s.tests();
    return new SummaryRow(anchor(index), s.step(), seconds(s.baseline().p50S()), seconds(s.candidate().p50S()),
        t.medianRatio() == null ? DASH : change(t.medianRatio() - 1), ratioCi(t.medianRatioCi95()),
        t.pAdjusted() == null ? DASH : Format.p(t.pAdjusted()),
        t.cliffsDelta() == null ? DASH : significant(t.cliffsDelta(), 2) + " " + t.cliffsMagnitude(),
        s.runLevel().baselineMediansS().size() + " vs " + s.runLevel().candidateMediansS().size(), words(s.verdict()),
        s.verdict().label());
  }

  private static StepView step(int index, StepComparison s, ComparisonReport report) {
    Tests t = s.tests();
    String headline = t.medianRatio() == null ? "median ratio undefined" : "median " + change(t.medianRatio() - 1);
    String detail = s.baseline().p50S() == null || s.candidate().p50S() == null ? ""
        : duration(s.candidate().p50S()) + " vs " + duration(s.baseline().p50S())
            + (t.medianRatioCi95() == null || t.medianRatioCi95().low() == null ? ""
                : " · 95% CI of the ratio " + ratioCi(t.medianRatioCi95()));
    Set<String> codes = new LinkedHashSet<>(s.baseline().errorsByCode().keySet());
    codes.addAll(s.candidate().errorsByCode().keySet());
    List<ErrorRow> errors = codes.stream().map(code -> new ErrorRow(code,
        s.baseline().errorsByCode().getOrDefault(code, 0L), s.candidate().errorsByCode().getOrDefault(code, 0L))).toList();
    String outliers = "Outlier policy " + report.outliers() + ": removed " + s.baseline().outliersRemoved()
        + " baseline and " + s.candidate().outliersRemoved() + " candidate tasks from the latency figures.";
    return new StepView(index, anchor(index), s.step(), words(s.verdict()), s.verdict().label(), headline, detail,
        s.explanation(), stats(s, report), tests(t), runs(s.runLevel()), !errors.isEmpty(), errors, outliers,
        runLevel(s.runLevel(), report.alpha()));
  }

  private static List<StatRow> stats(StepComparison s, ComparisonReport report) {
    GroupStatistics b = s.baseline();
    GroupStatistics c = s.candidate();
    Tests t = s.tests();
    RunLevel r = s.runLevel();
    double alpha = report.alpha();
    double margin = report.margin();
    List<StatRow> rows = new ArrayList<>();
    rows.add(count("runs", b.runs(), c.runs()));
    rows.add(count("tasks", b.tasks(), c.tasks()));
    rows.add(errorsRow(b, c, t, alpha));
    if (b.outliersRemoved() > 0 || c.outliersRemoved() > 0) {
      rows.add(count("outliers removed", b.outliersRemoved(), c.outliersRemoved()));
    }
    rows.add(latency("median (p50)", b, c, GroupStatistics::p50S, margin,
        t.pAdjusted() == null ? null : new Test("Mann–Whitney, adjusted p " + Format.p(t.pAdjusted()), t.pAdjusted() < alpha)));
    rows.add(latency("p90", b, c, GroupStatistics::p90S, margin, null));
    rows.add(latency("p95", b, c, GroupStatistics::p95S, margin, null));
    rows.add(latency("p99", b, c, GroupStatistics::p99S, margin, null));
    rows.add(latency("p99.9", b, c, GroupStatistics::p999S, margin, null));
    rows.add(latency("max", b, c, GroupStatistics::maxS, margin, null));
    rows.add(latency("mean", b, c, GroupStatistics::meanS, margin,
        t.welchP() == null ? null : new Test("Welch's t, p " + Format.p(t.welchP()), t.welchP() < alpha)));
    rows.add(latency("stddev", b, c, GroupStatistics::stddevS, margin, null));
    rows.add(runMedians(r, margin, alpha));
    rows.add(throughput(r, margin, alpha));
    return rows;
  }

  private record Test(String text, boolean significant) {}

  private static StatRow count(String name, long baseline, long candidate) {
    return new StatRow(name, Long.toString(baseline), Long.toString(candidate), DASH, DASH, "none", "", "none");
  }

  private static StatRow errorsRow(GroupStatistics b, GroupStatistics c, Tests t, double alpha) {
    String winner = DASH;
    boolean significant = t.fisherErrorsP() < alpha;
    double baseRate = b.tasks() == 0 ? 0 : b.errors() / (double) b.tasks();
    double candRate = c.tasks() == 0 ? 0 : c.errors() / (double) c.tasks();
    if (baseRate != candRate) {
      winner = candRate < baseRate ? "candidate" : "baseline";
    } else {
      winner = TIE;
    }
    return new StatRow("errors", errorText(b.errors(), baseRate), errorText(c.errors(), candRate),
        baseRate == 0 ? DASH : change(candRate / baseRate - 1), winner, significant ? winner : "weak",
        (significant ? "yes · " : "no · ") + "Fisher p " + Format.p(t.fisherErrorsP()), significant ? "yes" : "no");
  }

  private static String errorText(long errors, double rate) {
    return errors + " (" + Format.significant(rate * 100, 2) + "%)";
  }

  private static StatRow latency(String name, GroupStatistics b, GroupStatistics c, Function<GroupStatistics, Double> f,
      double margin, Test test) {
    Double base = f.apply(b);
    Double cand = f.apply(c);
    return lowerIsBetter(name, base, cand, margin, test, CompareHtml::seconds);
  }

  private static StatRow lowerIsBetter(String name, Double base, Double cand, double margin, Test test,
      Function<Double, String> format) {
    String changeText = DASH;
    String winner = DASH;
    if (base != null && cand != null && base > 0) {
      double ratio = cand / base;
      changeText = change(ratio - 1);
      winner = Math.abs(ratio - 1) < margin ? TIE : ratio < 1 ? "candidate" : "baseline";
    }
    return row(name, format.apply(base), format.apply(cand), changeText, winner, test);
  }

  private static StatRow row(String name, String base, String cand, String changeText, String winner, Test test) {
    String significance = test == null ? "not tested" : (test.significant() ? "yes · " : "no · ") + test.text();
    String significanceCss = test == null ? "none" : test.significant() ? "yes" : "no";
    String winnerCss = winner.equals(DASH) || winner.equals(TIE) ? "none"
        : test != null && !test.significant() ? "weak" : winner;
    return new StatRow(name, base, cand, changeText, winner, winnerCss, significance, significanceCss);
  }

  private static StatRow runMedians(RunLevel r, double margin, double alpha) {
    Double base = median(r.baselineMediansS());
    Double cand = median(r.candidateMediansS());
    Test test = r.pAdjusted() == null ? null
        : new Test("exact Mann–Whitney on runs, adjusted p " + Format.p(r.pAdjusted())
            + (r.enoughRuns() ? "" : " (too few runs to reach α)"), r.pAdjusted() < alpha);
    return lowerIsBetter("per-run median (median of runs)", base, cand, margin, test, CompareHtml::seconds);
  }

  private static StatRow throughput(RunLevel r, double margin, double alpha) {
    Double base = r.baselineThroughputPerS().contains(null) ? null : median(r.baselineThroughputPerS());
    Double cand = r.candidateThroughputPerS().contains(null) ? null : median(r.candidateThroughputPerS());
    String changeText = DASH;
    String winner = DASH;
    if (base != null && cand != null && base > 0) {
      double ratio = cand / base;
      changeText = change(ratio - 1);
      winner = Math.abs(ratio - 1) < margin ? TIE : ratio > 1 ? "candidate" : "baseline";
    }
    Test test = r.throughputP() == null ? null
        : new Test("exact Mann–Whitney on runs, p " + Format.p(r.throughputP()) + " (not adjusted)", r.throughputP() < alpha);
    return row("throughput per run (median of runs)", perSecond(base), perSecond(cand), changeText, winner, test);
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
      rows.add(new TestRow("median ratio", (t.medianRatio() == null ? "undefined (zero baseline median)"
          : significant(t.medianRatio(), 4)) + ", 95% CI " + ratioCi(t.medianRatioCi95()) + " (" + t.medianRatioMethod() + ")"));
    }
    rows.add(new TestRow("Fisher (errors)", Format.pEquals("p", t.fisherErrorsP())));
    return rows;
  }

  private static List<RunRow> runs(RunLevel r) {
    List<RunRow> rows = new ArrayList<>();
    for (int i = 0; i < r.baselineRunIds().size(); i++) {
      rows.add(new RunRow(r.baselineRunIds().get(i), "baseline", "baseline", seconds(r.baselineMediansS().get(i)),
          perSecond(r.baselineThroughputPerS().get(i))));
    }
    for (int i = 0; i < r.candidateRunIds().size(); i++) {
      rows.add(new RunRow(r.candidateRunIds().get(i), "candidate", "candidate", seconds(r.candidateMediansS().get(i)),
          perSecond(r.candidateThroughputPerS().get(i))));
    }
    return rows;
  }

  private static String runLevel(RunLevel r, double alpha) {
    String counts = r.baselineMediansS().size() + " baseline vs " + r.candidateMediansS().size() + " candidate runs";
    if (r.p() == null) {
      return counts + ": no run-level test (a group has no run with successful tasks).";
    }
    return counts + ": exact Mann–Whitney on the per-run medians, " + Format.pEquals("p", r.p()) + ", "
        + Format.pEquals("adjusted p", r.pAdjusted()) + (r.enoughRuns() ? "."
            : "; these run counts cannot reach α = " + significant(alpha, 3) + " (smallest possible p "
                + Format.p(r.smallestPossibleP()) + "): " + r.runsNeeded() + " runs per group are needed.");
  }

  /** The median of a few per-run figures (numpy's linear definition); null when empty. */
  private static Double median(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return dev.benchlake.analysis.stats.LinearQuantile.of(sorted, 0.5);
  }

  private static String words(Verdict verdict) {
    return switch (verdict) {
      case FASTER -> "faster";
      case SLOWER -> "slower";
      case NO_SIGNIFICANT_DIFFERENCE -> "no significant difference";
      case SIGNIFICANT_BUT_NEGLIGIBLE -> "significant but negligible";
      case INCONCLUSIVE -> "inconclusive";
    };
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
