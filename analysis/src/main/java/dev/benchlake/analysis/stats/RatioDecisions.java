package dev.benchlake.analysis.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides a family of steps at once, with the settings' correction across the steps.
 *
 * <p>For each step, with its {@link RatioEffect}, the margin M (band {@code [1/(1+M), 1+M]}) and
 * the level α, the difference p-values ({@link RatioEffect#pDifference()}) and the equivalence
 * p-values ({@link RatioEffect#pEquivalence(double)}, TOST) are each adjusted across the family
 * by the correction. Then, in this order:
 *
 * <ol>
 *   <li>{@link Verdict#EQUIVALENT} if the adjusted TOST p ≤ α (for a family of one: the 1 − 2α
 *       interval lies inside the band);
 *   <li>{@link Verdict#FASTER} / {@link Verdict#SLOWER} if the adjusted difference p ≤ α, by
 *       the direction of θ and {@code lowerIsBetter};
 *   <li>{@link Verdict#INCONCLUSIVE} otherwise, including steps whose p-values are undefined
 *       (NaN: every run identical), which also do not count in the family size.
 * </ol>
 *
 * <p>The two flags describe the (1 − α) interval of θ as shown to the reader, uncorrected:
 * {@code realButNegligible} when equivalent and that interval excludes 1; {@code beyondMargin}
 * when faster/slower and that whole interval lies beyond the band on the side of θ.
 * {@code uncorrected} is the verdict the same rule gives on the unadjusted p-values: where it is
 * decided and the verdict is not, the correction over {@code family} steps is what held it back,
 * and a report must say so beside an interval that excludes 1 (or lies in the band).
 * {@code runsNeeded} is, for inconclusive steps only, {@link RatioEffect#runsToDecide} at
 * {@value #PLANNED_POWER} power and level α; null otherwise.
 *
 * <p>Steps with fewer than two runs in a group, or no figures, cannot have an effect; callers
 * report them as inconclusive with the reason and leave them out of the family.
 */
public final class RatioDecisions {
  /** The power that {@code runsNeeded} plans for. */
  public static final double PLANNED_POWER = 0.8;

  /**
   * The decision for one step; p-values are NaN where undefined.
   *
   * @param uncorrected the verdict on the unadjusted p-values
   * @param family how many steps the correction weighed together (those with defined p-values)
   * @param runsNeeded for an inconclusive step, what more runs would do; null otherwise
   */
  public record Decision(Verdict verdict, double pDifferenceAdjusted, double pEquivalenceAdjusted,
      boolean realButNegligible, boolean beyondMargin, Verdict uncorrected, int family, RunsAdvice runsNeeded) {

    /** Whether the correction over the family, and not the data alone, left this step undecided. */
    public boolean heldBackByCorrection() {
      return verdict == Verdict.INCONCLUSIVE && uncorrected != Verdict.INCONCLUSIVE;
    }
  }

  private RatioDecisions() {}

  /**
   * @param steps the family, one effect per step, in the caller's order
   * @param lowerIsBetter true for latency (θ < 1 = faster), false for throughput (θ > 1 = faster)
   * @return one decision per step, in the same order
   */
  public static List<Decision> decide(List<? extends RatioEffect> steps, StatisticsSettings settings,
      boolean lowerIsBetter) {
    return decide(steps, settings, lowerIsBetter, true);
  }

  /**
   * The same decisions without {@code runsNeeded} (null throughout): for an interim look of a
   * sequential plan ({@link SequentialLooks}), where the plan, not a power calculation, says what
   * comes next, and which is looked at after every round.
   */
  public static List<Decision> decideWithoutPlanning(List<? extends RatioEffect> steps, StatisticsSettings settings,
      boolean lowerIsBetter) {
    return decide(steps, settings, lowerIsBetter, false);
  }

  private static List<Decision> decide(List<? extends RatioEffect> steps, StatisticsSettings settings,
      boolean lowerIsBetter, boolean plan) {
    double alpha = settings.alpha();
    double margin = settings.margin();
    int m = steps.size();
    double[] pDifference = new double[m];
    double[] pEquivalence = new double[m];
    int family = 0;
    for (int i = 0; i < m; i++) {
      pDifference[i] = steps.get(i).pDifference();
      pEquivalence[i] = steps.get(i).pEquivalence(margin);
      family += Double.isNaN(pDifference[i]) ? 0 : 1;
    }
    double[] differenceAdjusted = settings.correction().adjust(pDifference);
    double[] equivalenceAdjusted = settings.correction().adjust(pEquivalence);
    double upper = 1 + margin;
    double lower = 1 / upper;
    List<Decision> decisions = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      RatioEffect step = steps.get(i);
      Interval shown = step.interval(settings.decisionConfidence());
      boolean excludesOne = shown.low() > 1 || shown.high() < 1;
      boolean up = step.meanLogDifference() > 0;
      Verdict verdict = verdict(differenceAdjusted[i], equivalenceAdjusted[i], alpha, up, lowerIsBetter);
      Verdict uncorrected = verdict(pDifference[i], pEquivalence[i], alpha, up, lowerIsBetter);
      boolean negligible = verdict == Verdict.EQUIVALENT && excludesOne;
      boolean beyond = (verdict == Verdict.FASTER || verdict == Verdict.SLOWER)
          && (up ? shown.low() > upper : shown.high() < lower);
      RunsAdvice runs = plan && verdict == Verdict.INCONCLUSIVE ? step.runsToDecide(alpha, margin, PLANNED_POWER) : null;
      decisions.add(new Decision(verdict, differenceAdjusted[i], equivalenceAdjusted[i], negligible, beyond, uncorrected,
          family, runs));
    }
    return List.copyOf(decisions);
  }

  private static Verdict verdict(double pDifference, double pEquivalence, double alpha, boolean up,
      boolean lowerIsBetter) {
    if (pEquivalence <= alpha) {
      return Verdict.EQUIVALENT;
    }
    if (pDifference <= alpha) {
      return up == lowerIsBetter ? Verdict.SLOWER : Verdict.FASTER;
    }
    return Verdict.INCONCLUSIVE;
  }
}
