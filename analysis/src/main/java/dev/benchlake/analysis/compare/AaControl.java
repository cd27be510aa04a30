package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.RatioDecisions;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * A duet study's a/a control in one figure: both sides ran the same thing, so its θ must come out
 * 1, and a study whose control is not shown {@code equivalent} within the margin is marked
 * unreliable above its verdicts (its calls may reflect the method, e.g. one launch position or CPU
 * set favoured, not the versions).
 *
 * <p>θ pools every step's pairs of the control's comparison (each (round, step) pair's ratio of
 * the per-run medians, the figure the verdicts rest on): the geometric mean of the pooled per-pair
 * ratios, the one-sample t interval of their logs ({@link PairedLogRatio}), decided at the
 * comparison's α and margin (TOST for {@code equivalent}). Pooling is what gives a control of two
 * rounds an interval at all (per step, two pairs leave one degree of freedom). Its limit: the
 * steps of one round share that round's moment and CPU sets, so they are not independent and the
 * interval can be narrower than the rounds alone would give; the sides swap CPU sets every round,
 * which cancels a set's advantage over an even number of rounds. The per-step a/a verdicts are
 * in the control's own report ({@code aa/}).
 *
 * @param pairs the pooled (round, step) pairs
 * @param steps the steps they come from
 * @param ratio θ of the control: 1 when the method is sound
 * @param ci the interval at the comparison's decision confidence (1 − α)
 * @param confidence that confidence
 * @param verdict the control's verdict; only {@code equivalent} makes the study reliable
 * @param margin the equivalence margin it was decided with
 */
public record AaControl(int pairs, int steps, double ratio, Range ci, double confidence, Verdict verdict,
    double margin) {

  /**
   * The control from its comparison (side b against side a, both the baseline); null when it has
   * fewer than two pairs with a figure in all (nothing to decide on).
   */
  public static AaControl of(ComparisonReport control, StatisticsSettings settings) {
    return of(control.steps().stream().map(s -> s.runLevel().median().pairs()).toList(), settings);
  }

  /** The control from each step's pairs (null entries: a step without pairs). */
  public static AaControl of(List<RunPairs> stepPairs, StatisticsSettings settings) {
    List<Double> baseline = new ArrayList<>();
    List<Double> candidate = new ArrayList<>();
    int steps = 0;
    for (RunPairs pairs : stepPairs) {
      if (pairs == null || pairs.size() == 0) {
        continue;
      }
      steps++;
      for (RunPairs.Pair pair : pairs.pairs()) {
        baseline.add(pair.figures().baseline());
        candidate.add(pair.figures().candidate());
      }
    }
    if (baseline.size() < 2) {
      return null;
    }
    PairedLogRatio pooled = PairedLogRatio.of(baseline.stream().mapToDouble(Double::doubleValue).toArray(),
        candidate.stream().mapToDouble(Double::doubleValue).toArray());
    Verdict verdict = RatioDecisions.decide(List.of(pooled), settings, true).get(0).verdict();
    return new AaControl(pooled.pairs(), steps, pooled.ratio(), Range.of(pooled.interval(settings.decisionConfidence())),
        settings.decisionConfidence(), verdict, settings.margin());
  }

  /** Whether the study's calls can be trusted: the control came out equivalent within the margin. */
  public boolean reliable() {
    return verdict == Verdict.EQUIVALENT;
  }

  /** The control's figures: {@code θ +0.3% [−0.4%, +1.0%] over 10 pairs of 5 steps}. */
  public String figures() {
    return "θ " + Format.changeOf(ratio, ci) + " " + Format.changeInterval(ci) + " over " + pairs + " pairs of "
        + steps + (steps == 1 ? " step" : " steps");
  }

  /**
   * The sentence a report leads with: {@code Unreliable: …} when the control is not equivalent,
   * else what it showed.
   */
  public String sentence() {
    String margin = "±" + Format.percent(this.margin);
    if (reliable()) {
      return "A/a control (both sides the same): " + figures() + ", equivalent within " + margin
          + ": the method shows no difference where there is none.";
    }
    String came = verdict == Verdict.INCONCLUSIVE ? "inconclusive" : Format.verdict(verdict) + " (side b against side a)";
    return "Unreliable: the a/a control (both sides the same) came out " + came + ", " + figures()
        + ", not equivalent within " + margin + "; the calls below may reflect the measurement, not the sides.";
  }
}
