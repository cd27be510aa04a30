package dev.benchlake.analysis.compare;

import static dev.benchlake.analysis.report.Format.change;
import static dev.benchlake.analysis.report.Format.duration;
import static dev.benchlake.analysis.report.Format.p;
import static dev.benchlake.analysis.report.Format.pEquals;
import static dev.benchlake.analysis.report.Format.percent;
import static dev.benchlake.analysis.report.Format.significant;

import dev.benchlake.analysis.report.GroupStatistics;
import dev.benchlake.analysis.report.RunLevel;
import dev.benchlake.analysis.report.StepComparison;
import dev.benchlake.analysis.report.Tests;
import dev.benchlake.analysis.report.Verdict;
import dev.benchlake.analysis.stats.RunCountGuidance;
import java.util.ArrayList;
import java.util.List;

/**
 * Weighs the steps together and decides. Pure: figures in, verdicts and sentences out.
 *
 * <p><b>Corrections.</b> The task-level Mann–Whitney p-values of the steps are adjusted together
 * ({@link Tests#pAdjusted}), and so are the run-level ones ({@link RunLevel#pAdjusted}).
 *
 * <p><b>Verdict</b>, in this order:
 * <ol>
 *   <li>{@code inconclusive} when a group has no successful task (no latency to compare), or when
 *       the run counts cannot reach significance at all: the exact run-level test's smallest
 *       possible p-value is above α (α/m with Holm over m steps) — the run is the unit of
 *       replication, and 3 vs 3 runs cannot go below p = 0.1 whatever the tasks say.
 *   <li>{@code no_significant_difference} unless both the run-level and the task-level adjusted
 *       p-values are below α.
 *   <li>{@code significant_but_negligible} when the median moves by less than the margin
 *       ({@code |median_c/median_b − 1| < margin}; with a zero baseline median, when Cliff's δ is
 *       negligible).
 *   <li>otherwise {@code slower} or {@code faster} by the direction of the median (of δ when the
 *       medians are equal).
 * </ol>
 * Failures never enter the latency figures; their difference (Fisher's test) is stated in the
 * explanation.
 */
final class Verdicts {
  private Verdicts() {}

  static List<StepComparison> finish(List<StepDraft> drafts, CompareRequest request) {
    int count = drafts.size();
    double[] taskP = new double[count];
    double[] runP = new double[count];
    for (int i = 0; i < count; i++) {
      taskP[i] = orNaN(drafts.get(i).tests().mannWhitneyP());
      runP[i] = orNaN(drafts.get(i).runLevel().p());
    }
    double[] taskAdjusted = request.correction().adjust(taskP);
    double[] runAdjusted = request.correction().adjust(runP);
    int runFamily = (int) java.util.Arrays.stream(runP).filter(p -> !Double.isNaN(p)).count();
    double level = request.correction().bestCaseLevel(request.alpha(), runFamily);
    List<StepComparison> steps = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StepDraft draft = drafts.get(i);
      Tests tests = draft.tests().withPAdjusted(orNull(taskAdjusted[i]));
      RunLevel run = draft.runLevel();
      boolean enough = run.smallestPossibleP() != null && run.smallestPossibleP() <= level;
      run = run.withAdjustment(orNull(runAdjusted[i]), enough, enough ? null : RunCountGuidance.runsPerGroupNeeded(level));
      Decision decision = decide(draft.baseline(), draft.candidate(), tests, run, request);
      steps.add(new StepComparison(draft.step(), draft.baseline(), draft.candidate(), tests, run, decision.verdict,
          decision.explanation + errors(draft.baseline(), draft.candidate(), tests, request.alpha()) + ".", draft.plot()));
    }
    return steps;
  }

  private record Decision(Verdict verdict, String explanation) {}

  private static Decision decide(GroupStatistics b, GroupStatistics c, Tests tests, RunLevel run, CompareRequest request) {
    double alpha = request.alpha();
    if (b.p50S() == null || c.p50S() == null) {
      String which = b.p50S() == null && c.p50S() == null ? "either group"
          : b.p50S() == null ? "the baseline" : "the candidate";
      GroupStatistics empty = b.p50S() == null ? b : c;
      String what = empty.ok() == 0 ? "no successful task in " : "no latency recorded for the successful tasks of ";
      return new Decision(Verdict.INCONCLUSIVE, "Inconclusive: " + what + which + ", so latencies cannot be compared");
    }
    String median = median(b, c, tests);
    String margin = "±" + percent(request.margin()) + " margin";
    String cliff = "Cliff's δ = " + significant(tests.cliffsDelta(), 2) + ", " + tests.cliffsMagnitude();
    String tasks = pEquals("p_adj", tests.pAdjusted()) + ", " + cliff;
    String runCounts = run.baselineMediansS().size() + " vs " + run.candidateMediansS().size() + " runs";
    boolean tasksDiffer = tests.pAdjusted() < alpha;
    if (!run.enoughRuns()) {
      String floor = run.smallestPossibleP() == null ? "one group has no run with successful tasks"
          : "the smallest possible run-level p is " + p(run.smallestPossibleP());
      return new Decision(Verdict.INCONCLUSIVE, "Inconclusive: " + median + " and the tasks "
          + (tasksDiffer ? "differ (" : "do not differ significantly (") + tasks + "), but " + runCounts
          + " cannot establish " + (tasksDiffer ? "it" : "a difference") + " at α = " + significant(alpha, 3)
          + " (" + floor + "): " + run.runsNeeded() + " runs per group are needed");
    }
    String evidence = "across runs (" + pEquals("p_adj", run.pAdjusted()) + ", " + runCounts + ") and tasks (" + tasks + ")";
    if (!(run.pAdjusted() < alpha && tasksDiffer)) {
      return new Decision(Verdict.NO_SIGNIFICANT_DIFFERENCE, "No significant difference at α = " + significant(alpha, 3)
          + ": " + median + "; runs " + pEquals("p_adj", run.pAdjusted()) + " (" + runCounts + "), tasks "
          + pEquals("p_adj", tests.pAdjusted()) + " (" + cliff + ")");
    }
    Double ratio = tests.medianRatio();
    boolean material = ratio != null ? Math.abs(ratio - 1) >= request.margin()
        : !"negligible".equals(tests.cliffsMagnitude());
    if (!material) {
      return new Decision(Verdict.SIGNIFICANT_BUT_NEGLIGIBLE, "Significant but negligible: " + median + ", within the "
          + margin + ", though significant " + evidence);
    }
    boolean slower = ratio != null && ratio != 1 ? ratio > 1 : tests.cliffsDelta() > 0;
    return new Decision(slower ? Verdict.SLOWER : Verdict.FASTER,
        (slower ? "Slower: " : "Faster: ") + median + ", beyond the " + margin + ", significant " + evidence);
  }

  /** {@code the median rises 16.3% (1.43 ms vs 1.23 ms)}, candidate first. */
  private static String median(GroupStatistics b, GroupStatistics c, Tests tests) {
    if (tests.medianRatio() == null) {
      return "the median ratio is undefined (zero baseline median)";
    }
    double change = tests.medianRatio() - 1;
    String values = " (" + duration(c.p50S()) + " vs " + duration(b.p50S()) + ")";
    if (change == 0) {
      return "the median is unchanged" + values;
    }
    return "the median " + (change > 0 ? "rises " : "falls ") + change(Math.abs(change)).substring(1) + values;
  }

  private static String errors(GroupStatistics b, GroupStatistics c, Tests tests, double alpha) {
    if (b.errors() == 0 && c.errors() == 0) {
      return "";
    }
    String more = tests.fisherErrorsP() < alpha
        ? (c.errors() * (double) b.tasks() > b.errors() * (double) c.tasks() ? ", significantly more in the candidate"
            : ", significantly more in the baseline")
        : "";
    return "; errors " + b.errors() + " vs " + c.errors() + " (Fisher " + pEquals("p", tests.fisherErrorsP()) + more + ")";
  }

  private static double orNaN(Double value) {
    return value == null ? Double.NaN : value;
  }

  private static Double orNull(double value) {
    return Double.isNaN(value) ? null : value;
  }
}
