package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.stats.CrossoverLogRatio;
import dev.benchlake.analysis.stats.PairedEffect;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.RatioDecisions;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A duet study's a/a control in one figure: both sides ran the same thing, so its θ must come out
 * 1, and a study whose control is not shown {@code equivalent} within the margin is marked
 * unreliable above its verdicts (its calls may reflect the method, e.g. one launch position or CPU
 * set favoured, not the versions).
 *
 * <p>The unit is the duet measurement, not the (measurement, step) pair: the runs that share a
 * pairing key ({@code round=3}, or {@code round=3, pair=sysbench} when a round measures several
 * workloads one after the other), whose steps ran at the same moment on the same CPU sets. What
 * disturbs that moment (other work on one set, a noisy minute) moves all its steps together:
 * pooling them as independent pairs gave intervals far too narrow, and an a/a control "slower" by
 * 19 % [6 %, 33 %] over 6 pairs of 3 rounds on a loaded CI machine. So each measurement gives one
 * figure, the mean over its steps of the log ratio of the per-run medians (the figure the verdicts
 * rest on); θ is the exponentiated mean of those figures, its interval the one-sample t over the
 * measurements ({@link PairedLogRatio}, {@code df = measurements − 1}), decided at the
 * comparison's α and margin (TOST for {@code equivalent}). Two measurements leave one degree of
 * freedom: they prove equivalence only when they agree closely, which is the point of a control.
 * The sides swap CPU sets every round; where at least two measurements ran each way, the set is
 * fitted as the comparison's own analysis fits it ({@link CrossoverLogRatio}, {@code df =
 * measurements − 2}), so that the control checks the analysis the verdicts use. The per-step a/a
 * verdicts are in the control's own report ({@code aa/}).
 *
 * @param measurements the pairing keys with at least one complete pair: the sample
 * @param pairs the (measurement, step) pairs behind them
 * @param steps the steps they come from
 * @param ratio θ of the control: 1 when the method is sound
 * @param ci the interval at the comparison's decision confidence (1 − α)
 * @param confidence that confidence
 * @param equivalenceCi the interval its {@code equivalent} rests on (TOST: the 1 − 2α interval within
 *     the margin), shown beside the verdict so that a reader can check it against the margin
 * @param equivalenceConfidence that interval's confidence (1 − 2α)
 * @param verdict the control's verdict; only {@code equivalent} makes the study reliable
 * @param margin the equivalence margin it was decided with
 * @param cpuSetFitted whether the measurements swapped CPU sets with at least two each way, so
 *     that the set was fitted as in the comparison's own analysis ({@link CrossoverLogRatio},
 *     {@code df = measurements − 2})
 * @param measurementsNeeded for an inconclusive control, the measurements that would decide it at
 *     {@link RatioDecisions#PLANNED_POWER} power at their spread, as the comparison plans a step's
 *     pairs ({@link RatioEffect#runsToDecide}); null otherwise, or where no count does
 */
public record AaControl(int measurements, int pairs, int steps, double ratio, Range ci, double confidence,
    Range equivalenceCi, double equivalenceConfidence, Verdict verdict, double margin, boolean cpuSetFitted,
    Integer measurementsNeeded) {

  /**
   * The control from its comparison (side b against side a, both the baseline); null when it has
   * fewer than two measurements with a complete pair (nothing to decide on).
   */
  public static AaControl of(ComparisonReport control, StatisticsSettings settings) {
    return of(control.steps().stream().map(s -> s.runLevel().median().pairs()).toList(), settings);
  }

  /** The control from each step's pairs (null entries: a step without pairs), measurements by pairing key. */
  public static AaControl of(List<RunPairs> stepPairs, StatisticsSettings settings) {
    Map<String, List<Double>> logRatiosByKey = new LinkedHashMap<>();
    Map<String, RunPairs.Pair> firstPairByKey = new LinkedHashMap<>();
    int steps = 0;
    int pairs = 0;
    for (RunPairs stepPairsOfOneStep : stepPairs) {
      if (stepPairsOfOneStep == null || stepPairsOfOneStep.size() == 0) {
        continue;
      }
      steps++;
      for (RunPairs.Pair pair : stepPairsOfOneStep.pairs()) {
        pairs++;
        logRatiosByKey.computeIfAbsent(pair.key(), k -> new ArrayList<>())
            .add(Math.log(pair.figures().candidate()) - Math.log(pair.figures().baseline()));
        firstPairByKey.putIfAbsent(pair.key(), pair);
      }
    }
    if (logRatiosByKey.size() < 2) {
      return null;
    }
    double[] byMeasurement = logRatiosByKey.values().stream()
        .mapToDouble(logs -> logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow()).toArray();
    // A measurement's steps share its round's CPU sets: the sets of its first pair are all of them.
    boolean[] onSetOne = new RunPairs(List.copyOf(firstPairByKey.values()), List.of()).baselineOnSetOne();
    RatioEffect effect = PairedEffect.of(byMeasurement, onSetOne);
    RatioDecisions.Decision decision = RatioDecisions.decide(List.of(effect), settings, true).get(0);
    Verdict verdict = decision.verdict();
    Integer needed = decision.runsNeeded() == null ? null : decision.runsNeeded().runs();
    return new AaControl(byMeasurement.length, pairs, steps, effect.ratio(),
        Range.of(effect.interval(settings.decisionConfidence())), settings.decisionConfidence(),
        Range.of(effect.interval(settings.equivalenceConfidence())), settings.equivalenceConfidence(), verdict,
        settings.margin(), effect instanceof CrossoverLogRatio, needed);
  }

  /** Whether the study's calls can be trusted: the control came out equivalent within the margin. */
  public boolean reliable() {
    return verdict == Verdict.EQUIVALENT;
  }

  /**
   * The control's figures: {@code θ +0.3%, 95% interval [−0.4%, +1.0%], 90% interval [−0.3%, +0.9%],
   * over 4 measurements (8 pairs of 2 steps)}: the second interval is the one the margin is checked on.
   */
  public String figures() {
    return "θ " + Format.changeOf(ratio, ci) + ", " + Format.percent(confidence) + " interval "
        + Format.changeInterval(ci) + ", " + Format.percent(equivalenceConfidence) + " interval "
        + Format.changeInterval(equivalenceCi) + ", over " + measurements + " measurements (" + pairs + " pairs of "
        + steps + (steps == 1 ? " step" : " steps") + (cpuSetFitted ? ", CPU set fitted" : "") + ")";
  }

  /**
   * The sentence a report leads with: {@code Unreliable: …} when the control is not equivalent,
   * else what it showed.
   */
  public String sentence() {
    String margin = "±" + Format.percent(this.margin);
    if (reliable()) {
      return "A/a control (both sides the same): " + figures() + ": equivalent, the "
          + Format.percent(equivalenceConfidence) + " interval within " + margin
          + ": the method shows no difference where there is none.";
    }
    String came = verdict == Verdict.INCONCLUSIVE ? "inconclusive" : Format.verdict(verdict) + " (side b against side a)";
    String more = measurementsNeeded == null ? ""
        : " (about " + measurementsNeeded + " measurements would decide it, at "
            + Format.percent(RatioDecisions.PLANNED_POWER) + " power at their spread: more a/a rounds)";
    return "Unreliable: the a/a control (both sides the same) came out " + came + ", " + figures()
        + ": not equivalent, the " + Format.percent(equivalenceConfidence) + " interval not within " + margin + more
        + "; the calls below may reflect the measurement, not the sides.";
  }
}
