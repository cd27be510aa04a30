package dev.benchlake.analysis.compare;

import static dev.benchlake.analysis.report.Format.change;
import static dev.benchlake.analysis.report.Format.percent;
import static dev.benchlake.analysis.report.Format.significant;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.compare.RunErrors;
import dev.benchlake.analysis.compare.RunLevel;
import dev.benchlake.analysis.compare.RunLevelEffect;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.stats.LogRatio;
import dev.benchlake.analysis.stats.RatioDecisions;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Weighs the steps together and decides. Pure: figures in, verdicts and sentences out.
 *
 * <p>The run is the unit of replication. Per step and family (per-run median latency, per-run
 * p99, per-run throughput) θ is the ratio of the geometric means of the per-run figures
 * ({@link LogRatio}); {@link RatioDecisions} decides each family across the compared steps (Holm
 * or Benjamini–Hochberg): {@code equivalent} when the 1 − 2α interval lies in the band
 * [1/(1+M), 1+M], else {@code faster}/{@code slower} when the 1 − α interval excludes 1, else
 * {@code inconclusive} with the runs per group that 80 % power would need. A step's verdict is its
 * median family's. A step whose group has no run with successful tasks, a single run, a zero
 * per-run figure or no variation between runs is {@code inconclusive} with a sentence saying why,
 * and is left out of the family (it has no p-value to correct).
 *
 * <p>The task-level tests never enter the verdict: they treat tasks as independent, while tasks
 * of one run share that run's conditions.
 */
final class Verdicts {
  private static final String MEDIAN = "median";
  private static final String P99 = "p99";
  private static final String THROUGHPUT = "throughput";

  private Verdicts() {}

  static List<StepComparison> finish(List<StepDraft> drafts, CompareRequest request) {
    List<RunLevelEffect> medians = family(drafts, MEDIAN, d -> d.runLevel().baselineMediansS(),
        d -> d.runLevel().candidateMediansS(), true, StepDraft::withinRunSeLogMedian, StepDraft::bootstrapMedian, request);
    List<RunLevelEffect> p99s = family(drafts, P99, d -> d.runLevel().baselineP99S(), d -> d.runLevel().candidateP99S(),
        true, StepDraft::withinRunSeLogP99, StepDraft::bootstrapP99, request);
    List<RunLevelEffect> throughputs = family(drafts, THROUGHPUT, d -> d.runLevel().baselineThroughputPerS(),
        d -> d.runLevel().candidateThroughputPerS(), false, d -> Double.NaN, d -> null, request);
    // The within-run Mann–Whitney p-values are adjusted too, as descriptive figures of their own.
    double[] taskP = drafts.stream().mapToDouble(d -> d.tests().mannWhitneyP() == null ? Double.NaN
        : d.tests().mannWhitneyP()).toArray();
    double[] taskAdjusted = request.correction().adjust(taskP);
    List<StepComparison> steps = new ArrayList<>();
    for (int i = 0; i < drafts.size(); i++) {
      StepDraft draft = drafts.get(i);
      RunLevelEffect median = medians.get(i);
      String variance = Sentences.variance(median);
      RunLevel run = draft.runLevel().withEffects(median, p99s.get(i), throughputs.get(i), variance);
      String explanation = Sentences.verdict(median, run.counts(), request) + (variance == null ? "" : " " + variance)
          + Sentences.errors(run.errors(), draft.baseline().errors(), draft.candidate().errors());
      steps.add(new StepComparison(draft.step(), draft.baseline(), draft.candidate(),
          draft.tests().withPAdjusted(orNull(taskAdjusted[i])), run,
          median.verdict(), explanation, draft.plot(), null));
    }
    return steps;
  }

  /** One family's effects over every step; the decidable steps are decided together. */
  private static List<RunLevelEffect> family(List<StepDraft> drafts, String metric,
      Function<StepDraft, List<Double>> baseline, Function<StepDraft, List<Double>> candidate, boolean lowerIsBetter,
      java.util.function.ToDoubleFunction<StepDraft> withinSe, Function<StepDraft, Interval> bootstrap,
      CompareRequest request) {
    RunLevelEffect[] effects = new RunLevelEffect[drafts.size()];
    List<Integer> decidable = new ArrayList<>();
    List<LogRatio> ratios = new ArrayList<>();
    for (int i = 0; i < drafts.size(); i++) {
      StepDraft d = drafts.get(i);
      List<Double> b = baseline.apply(d);
      List<Double> c = candidate.apply(d);
      String why = whyUndecidable(metric, b, c);
      if (why == null) {
        LogRatio ratio = LogRatio.of(values(b), values(c));
        // Runs that all give the same figure show no run-to-run variance to build an interval on
        // (decided here, not left to rounding in the logs).
        boolean varies = Arrays.stream(values(b)).distinct().count() > 1 || Arrays.stream(values(c)).distinct().count() > 1;
        if (varies && ratio.interval(0.95).bounded()) {
          decidable.add(i);
          ratios.add(ratio);
          continue;
        }
        why = "the per-run " + metric + " figures do not vary at all, so no interval can be estimated";
      }
      effects[i] = RunLevelEffect.unavailable(metric, why);
    }
    List<RatioDecisions.Decision> decisions = ratios.isEmpty() ? List.of()
        : RatioDecisions.decide(ratios, request.alpha(), request.margin(), request.correction(), lowerIsBetter);
    for (int k = 0; k < decidable.size(); k++) {
      int i = decidable.get(k);
      LogRatio r = ratios.get(k);
      RatioDecisions.Decision decision = decisions.get(k);
      StepDraft d = drafts.get(i);
      Interval boot = bootstrap.apply(d);
      Integer needed = decision.runsNeededPerGroup();
      effects[i] = new RunLevelEffect(metric, r.ratio(), range(r.interval(0.95)), range(r.interval(0.90)),
          range(r.interval(1 - request.alpha())), range(r.interval(1 - 2 * request.alpha())),
          orNull(r.pDifference()), orNull(decision.pDifferenceAdjusted()), orNull(decision.pEquivalenceAdjusted()),
          orNull(r.betweenRunSdLog()), orNull(withinSe.applyAsDouble(d)),
          decision.verdict() == Verdict.INCONCLUSIVE ? needed : null, boot == null ? null : range(boot),
          decision.verdict(), decision.realButNegligible(), decision.beyondMargin(), null);
    }
    return Arrays.asList(effects);
  }

  /** Why θ cannot be estimated from these per-run figures, or null when it can. */
  static String whyUndecidable(String metric, List<Double> baseline, List<Double> candidate) {
    List<Double> b = baseline.stream().filter(Objects::nonNull).toList();
    List<Double> c = candidate.stream().filter(Objects::nonNull).toList();
    String figure = metric.equals(THROUGHPUT) ? "throughput" : "successful task";
    if (b.isEmpty() || c.isEmpty()) {
      String which = b.isEmpty() && c.isEmpty() ? "either group" : b.isEmpty() ? "the baseline" : "the candidate";
      return "no run of " + which + " has a " + (metric.equals(THROUGHPUT) ? "measurable throughput" : figure)
          + ", so there is nothing to compare";
    }
    if (b.size() < 2 || c.size() < 2) {
      String which = b.size() < 2 && c.size() < 2 ? "both groups have" : b.size() < 2 ? "the baseline has" : "the candidate has";
      return which + " a single run: one run cannot show how much runs differ, so no interval is possible"
          + " whatever its task count";
    }
    if (b.stream().anyMatch(v -> !(v > 0)) || c.stream().anyMatch(v -> !(v > 0))) {
      return "a per-run " + metric + " of 0 has no logarithm, so the ratio of geometric means is undefined";
    }
    return null;
  }

  private static double[] values(List<Double> values) {
    return values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
  }

  private static Range range(Interval interval) {
    return interval.bounded() ? new Range(interval.low(), interval.high()) : Range.UNBOUNDED;
  }

  private static Double orNull(double value) {
    return Double.isFinite(value) ? value : null;
  }

  /** The sentences, each saying only what the numbers next to it support. */
  static final class Sentences {
    private Sentences() {}

    static String verdict(RunLevelEffect m, String runs, CompareRequest request) {
      if (m.unavailable() != null) {
        return "Inconclusive: " + m.unavailable() + ".";
      }
      String theta = "per-run median latency " + change(m.ratio() - 1) + " (θ = " + significant(m.ratio(), 4) + ")";
      String margin = "±" + percent(request.margin()) + " margin";
      // The intervals the verdict rests on: 1 − α for a difference, 1 − 2α for equivalence.
      String ci = interval(m.ciDecision());
      String level = percent(1 - request.alpha()) + " interval";
      String equivalenceLevel = percent(1 - 2 * request.alpha()) + " interval";
      return switch (m.verdict()) {
        case EQUIVALENT -> (m.realButNegligible()
            ? "Equivalent: a real but negligible difference (" + change(m.ratio() - 1) + ", interval " + ci + ")"
            : "Equivalent: " + theta + ", " + level + " " + ci)
            + "; the " + equivalenceLevel + " " + interval(m.ciEquivalence()) + " lies within the " + margin + " (TOST "
            + Format.pEquals("p_adj", m.pEquivalenceAdjusted()) + ", " + runs + " runs).";
        case SLOWER, FASTER -> {
          boolean slower = m.verdict() == Verdict.SLOWER;
          String word = slower ? "slower" : "faster";
          // The bound of the interval nearest to 1: how large the change is at least.
          double nearest = slower ? m.ciDecision().low() : m.ciDecision().high();
          String size = m.beyondMargin()
              ? "the whole interval lies beyond the " + margin + ": at least " + change(Math.abs(nearest - 1)).substring(1)
                  + " " + word
              : "the size is still uncertain: the interval reaches into the " + margin;
          yield (slower ? "Slower: " : "Faster: ") + theta + ", " + level + " " + ci + " ("
              + Format.pEquals("p_adj", m.pAdjusted()) + ", " + runs + " runs); " + size + ".";
        }
        case INCONCLUSIVE -> "Inconclusive: " + theta + ", " + level + " " + ci + " (" + runs
            + " runs): compatible both with no change and with one beyond the " + margin + "; about " + m.runsNeeded()
            + " runs per group would decide it (80% power at the observed between-run SD of "
            + significant(m.betweenRunSdLog(), 2) + " on the log scale).";
      };
    }

    /** Which variance component dominates, or null when they are not both known. */
    static String variance(RunLevelEffect m) {
      if (m.betweenRunSdLog() == null || m.withinRunSeLog() == null) {
        return null;
      }
      double between = m.betweenRunSdLog();
      double within = m.withinRunSeLog();
      String figures = "(between-run SD " + significant(between, 2) + ", within-run SE of the log median "
          + significant(within, 2) + ")";
      if (between >= 2 * within) {
        return "Runs differ far more than a run's own sampling noise " + figures
            + ": more tasks per run will not help; more runs will.";
      }
      if (within >= 2 * between) {
        return "A run's own sampling noise dominates " + figures + ": more tasks per run will help as much as more runs.";
      }
      return "Run-to-run and within-run noise are of similar size " + figures + ": more runs help most, more tasks per"
          + " run somewhat.";
    }

    /** The errors across runs, when there are any. */
    static String errors(RunErrors e, long baselineErrors, long candidateErrors) {
      if (baselineErrors == 0 && candidateErrors == 0) {
        return "";
      }
      String rates = " Errors: " + baselineErrors + " vs " + candidateErrors + " tasks; mean per-run error rate "
          + percentValue(e.baselineMeanRate()) + " vs " + percentValue(e.candidateMeanRate());
      if (e.p() == null) {
        return rates + " (no run-level test: too few runs or no variation).";
      }
      return rates + " (Welch's t on the per-run rates, " + Format.pEquals("p", e.p()) + ").";
    }

    private static String percentValue(Double rate) {
      return rate == null ? "—" : significant(rate * 100, 2) + "%";
    }

    /** {@code [+0.6%, +2.5%]}: an interval of a ratio as changes. */
    static String interval(Range r) {
      return r == null || r.low() == null ? "unbounded" : "[" + change(r.low() - 1) + ", " + change(r.high() - 1) + "]";
    }
  }
}
