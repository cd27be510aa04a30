package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.report.EffectMethod;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.FamilyDecisions;
import dev.benchlake.analysis.report.PairedByKey;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Weighs the steps together and decides. Pure: figures in, the report's steps out.
 *
 * <p>The run is the unit of replication. Per step and family (per-run median latency, per-run
 * p99, per-run throughput) θ is estimated from the per-run figures by the {@link EffectMethod} of the
 * runs' {@link Pairing} (two independent groups: the ratio of their geometric means, Welch's t on the
 * logs; runs in pairs: the geometric mean of the per-pair ratios, the one-sample t of their logs,
 * a step with fewer than two complete pairs undecidable); {@link FamilyDecisions} decides each
 * family across the compared steps with the settings' correction: {@code equivalent} when the
 * 1 − 2α interval lies in the band [1/(1+M), 1+M], else {@code faster}/{@code slower} when the
 * 1 − α interval excludes 1, else {@code inconclusive} with what more runs would do. A step's
 * verdict is its median family's. A step whose side has no run with successful tasks, a single
 * run, a zero per-run figure or no variation between runs is {@code inconclusive} with a sentence
 * saying why, and is left out of the family (it has no p-value to correct).
 *
 * <p>The task-level tests never enter the verdict: they treat tasks as independent, while tasks
 * of one run share that run's conditions.
 */
final class Verdicts {
  private Verdicts() {}

  /**
   * @param confounders the table-maintenance check of each step's two sides: the runs of each that
   *     have the step
   */
  static List<StepComparison> finish(List<StepFigures> steps, StatisticsSettings settings, Pairing pairing,
      TableHealthConfounders confounders) {
    Map<Family, List<RunLevelEffect>> effects = new EnumMap<>(Family.class);
    for (Family family : Family.values()) {
      effects.put(family, family(steps, family, settings, pairing));
    }
    // The within-run Mann–Whitney p-values are adjusted too, as descriptive figures of their own.
    double[] taskP = steps.stream().mapToDouble(s -> s.tests().onLatencies() && s.tests().mannWhitney().p() != null
        ? s.tests().mannWhitney().p() : Double.NaN).toArray();
    double[] taskAdjusted = settings.correction().adjust(taskP);
    List<StepComparison> out = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      StepFigures s = steps.get(i);
      RunLevelEffect median = effects.get(Family.MEDIAN).get(i);
      String variance = VerdictSentences.variance(median);
      RunLevel runLevel = new RunLevel(s.runs(), median, effects.get(Family.P99).get(i),
          effects.get(Family.THROUGHPUT).get(i), s.errors(), variance);
      String explanation = VerdictSentences.verdict(median, runLevel.replicates(), settings)
          + (variance == null ? "" : " " + variance)
          + VerdictSentences.errors(s.errors(), s.groups().map(GroupStatistics::errors));
      out.add(StepComparison.of(s.step(), s.groups(), s.tests().withPAdjusted(orNull(taskAdjusted[i])), runLevel,
          explanation, s.plot(), confounders.between(s.step(), Sides.of("the baseline", "the candidate"),
              runLevel.runIds())));
    }
    return out;
  }

  /** One family's effects over every step; the estimable steps are decided together. */
  private static List<RunLevelEffect> family(List<StepFigures> steps, Family family, StatisticsSettings settings,
      Pairing pairing) {
    EffectMethod method = pairing.method();
    List<RatioEffect> estimated = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    List<RunPairs> pairs = new ArrayList<>();
    for (StepFigures s : steps) {
      Sides<Map<String, Double>> figures = s.runs().map(runs -> figuresByRun(runs, family));
      RunPairs matched = method instanceof PairedByKey paired ? paired.pairs(figures) : null;
      String why = whyUndecidable(family, figures);
      if (why == null && matched != null && matched.size() < 2) {
        why = whyTooFewPairs(matched);
      }
      RatioEffect effect = null;
      if (why == null) {
        effect = method.estimate(figures);
        // Runs that all give the same figure show no run-to-run variance to build an interval on
        // (decided here, not left to rounding in the logs).
        boolean varies = figures.either(f -> f.values().stream().distinct().count() > 1);
        if (!varies || !effect.interval(0.95).bounded()) {
          why = "the per-run " + family.metric() + " figures do not vary at all, so no interval can be estimated";
          effect = null;
        } else if (pairing.paired() && !(effect.betweenRunSdLog() > 0)) {
          why = "every pair of runs has the same " + family.metric() + " ratio, so the pairs show no spread to build"
              + " an interval on";
          effect = null;
        }
      }
      estimated.add(effect);
      reasons.add(why);
      pairs.add(matched);
    }
    List<Decision> decisions = FamilyDecisions.decide(estimated, settings, family.direction());
    List<RunLevelEffect> effects = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      RatioEffect effect = estimated.get(i);
      if (effect == null) {
        effects.add(RunLevelEffect.unavailable(family, reasons.get(i), pairing.analysis(), pairs.get(i)));
        continue;
      }
      StepFigures.TailUncertainty tail = steps.get(i).tails().get(family);
      effects.add(new RunLevelEffect(family, Estimate.of(effect, settings), decisions.get(i),
          tail == null ? null : orNull(tail.withinRunSeLog()), tail == null ? null : Range.of(tail.bootstrapCi95()),
          null, pairing.analysis(), pairs.get(i)));
    }
    return effects;
  }

  /** Why a paired θ cannot be estimated from fewer than two complete pairs. */
  static String whyTooFewPairs(RunPairs matched) {
    return (matched.size() == 0 ? "no run has a partner of the same key on the other side"
        : "only one pair of runs is complete") + " (" + matched.dropped().size() + " run"
        + (matched.dropped().size() == 1 ? "" : "s") + " dropped for want of a partner): the paired analysis needs at"
        + " least 2 complete pairs to show how much pairs differ, so no interval is possible and no verdict is drawn";
  }

  /** Each run's figure of {@code family} by run id, the runs without one left out. */
  private static Map<String, Double> figuresByRun(List<RunFigure> runs, Family family) {
    Map<String, Double> figures = new LinkedHashMap<>();
    runs.stream().filter(r -> family.figureOf(r) != null).forEach(r -> figures.put(r.runId(), family.figureOf(r)));
    return figures;
  }

  /** Why θ cannot be estimated from these per-run figures, or null when it can. */
  static String whyUndecidable(Family family, Sides<Map<String, Double>> figures) {
    Sides<List<Double>> values = figures.map(f -> f.values().stream().filter(Objects::nonNull).toList());
    if (values.either(List::isEmpty)) {
      String which = values.both(List::isEmpty) ? "either group" : values.baseline().isEmpty() ? "the baseline"
          : "the candidate";
      return "no run of " + which + " has a " + family.figureNoun() + ", so there is nothing to compare";
    }
    if (values.either(v -> v.size() < 2)) {
      String which = values.both(v -> v.size() < 2) ? "both groups have" : values.baseline().size() < 2
          ? "the baseline has" : "the candidate has";
      return which + " a single run: one run cannot show how much runs differ, so no interval is possible"
          + " whatever its task count";
    }
    if (values.either(v -> v.stream().anyMatch(x -> !(x > 0)))) {
      return "a per-run " + family.metric() + " of 0 has no logarithm, so the ratio of geometric means is undefined";
    }
    return null;
  }

  private static Double orNull(double value) {
    return Double.isFinite(value) ? value : null;
  }
}
