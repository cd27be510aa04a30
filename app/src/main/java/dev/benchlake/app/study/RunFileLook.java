package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.report.CallTally;
import dev.benchlake.analysis.report.FamilyDecisions;
import dev.benchlake.analysis.report.Direction;
import dev.benchlake.analysis.stats.PairedEffect;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An interim look of a duet that compares side b with side a (the quickstart, {@code study ab}),
 * decided in this process from the runs' own {@code tasks.csv}, without ingesting them: the same
 * figures as the comparison's (each run's median latency of its successful measured tasks, paired
 * by round, {@code PairedEffect.robust} with the CPU set fitted; {@link LookPreCheck#pairsByStep}),
 * the same family and correction ({@link FamilyDecisions}), the same rule for a step that has no
 * effect (fewer than two pairs, a zero median, no spread). Why: a look on Spark (an ingest into the
 * warehouse and a comparison) took 6–21 s, five to eight of them a quickstart, a fifth of its time;
 * this takes milliseconds. The runs are ingested once, when the study stops, and the report is the
 * comparison's: {@link #disagreements} checks it against the stopping look's calls, which are the
 * same unless the two readings of the runs differ (said on stderr, never silently).
 */
final class RunFileLook {
  private final LookPreCheck runs;
  /** The last look taken, and each of its steps' effect (null: none); null before the first. */
  private UntilDecided.Look last;
  private List<RatioEffect> lastEffects;

  /** @param runs reads the runs' medians (once a run), shared with the pre-check of the same study */
  RunFileLook(LookPreCheck runs) {
    this.runs = runs;
  }

  /** The look over every comparison round of {@code soFar}, decided at {@code at}. */
  UntilDecided.Look at(List<StudyRuns.Done> soFar, StatisticsSettings at) throws IOException {
    Map<String, List<LookPreCheck.Pair>> pairs = runs.pairsByStep(soFar);
    List<String> names = new ArrayList<>(pairs.keySet());
    List<RatioEffect> effects = names.stream().map(step -> effect(pairs.get(step))).toList();
    List<Decision> decided = FamilyDecisions.decide(effects, at, Direction.LOWER_IS_BETTER);
    CallTally tally = CallTally.of(decided.stream().map(RunFileLook::verdictOf));
    last = new UntilDecided.Look(decided, "Calls: " + tally.ofSteps(), names);
    lastEffects = effects;
    return last;
  }

  private static Verdict verdictOf(Decision decision) {
    return decision == null ? Verdict.INCONCLUSIVE : decision.verdict();
  }

  /**
   * θ of one step's pairs as the comparison estimates it, or null where the comparison draws no
   * verdict: fewer than two pairs, a median of 0 (no logarithm), pairs that do not vary, an
   * interval that is not bounded.
   */
  static RatioEffect effect(List<LookPreCheck.Pair> pairs) {
    if (pairs.size() < 2 || pairs.stream().anyMatch(p -> !Double.isFinite(p.logRatio()))) {
      return null;
    }
    double[] logRatios = pairs.stream().mapToDouble(LookPreCheck.Pair::logRatio).toArray();
    boolean[] onSetOne = LookPreCheck.onSetOne(pairs);
    RatioEffect effect = PairedEffect.robust(logRatios, onSetOne);
    // As the comparison: runs of each side that all give one figure show no spread to build on.
    boolean varies = pairs.stream().mapToDouble(LookPreCheck.Pair::baseline).distinct().count() > 1
        || pairs.stream().mapToDouble(LookPreCheck.Pair::candidate).distinct().count() > 1;
    if (!varies || !effect.interval(0.95).bounded() || !(effect.betweenRunSdLog() > 0)) {
      return null;
    }
    return effect;
  }

  /**
   * Where the comparison ({@code report}, decided at the stopping look's settings over the same
   * runs) differs from this look's last figures: a step's call, or its θ by more than rounding (a
   * relative 1e-9), one phrase per step ({@code insert: the look faster, θ 0.6019; the comparison
   * inconclusive, θ 0.6020}); empty when they agree, or when no look was taken here.
   */
  List<String> disagreements(ComparisonReport report) {
    List<String> out = new ArrayList<>();
    if (last == null || last.stepOf().isEmpty()) {
      return out;
    }
    List<String> steps = last.stepOf();
    Map<String, StepComparison> compared = new java.util.LinkedHashMap<>();
    report.steps().forEach(s -> compared.put(s.step(), s));
    for (int i = 0; i < steps.size(); i++) {
      Verdict look = verdictOf(last.decisions().get(i));
      Double lookRatio = lastEffects.get(i) == null ? null : lastEffects.get(i).ratio();
      StepComparison step = compared.get(steps.get(i));
      Double ratio = step == null ? null : step.runLevel().median().estimate().ratio();
      if (step == null || step.verdict() != look || !sameRatio(lookRatio, ratio)) {
        out.add(String.format(Locale.ROOT, "%s: the look %s, θ %s; the comparison %s, θ %s", steps.get(i),
            look.jsonName(), lookRatio, step == null ? "without the step" : step.verdict().jsonName(), ratio));
      }
    }
    compared.keySet().stream().filter(s -> !steps.contains(s))
        .forEach(s -> out.add(s + ": the comparison " + compared.get(s).verdict().jsonName() + ", the look without the step"));
    return out;
  }

  private static boolean sameRatio(Double look, Double comparison) {
    if (look == null || comparison == null) {
      return look == null && comparison == null;
    }
    return Math.abs(Math.log(look / comparison)) <= 1e-9;
  }
}
