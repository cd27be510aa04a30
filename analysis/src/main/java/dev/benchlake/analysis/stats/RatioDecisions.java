package dev.benchlake.analysis.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides a family of steps at once: Holm (default) or BH correction across the steps.
 *
 * <p>For each step, with its {@link LogRatio}, the margin M (band {@code [1/(1+M), 1+M]}) and
 * the level α, the difference p-values ({@link LogRatio#pDifference()}) and the equivalence
 * p-values ({@link LogRatio#pEquivalence(double)}, TOST) are each adjusted across the family by
 * {@code correction}. Then, in this order:
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
 * {@code runsNeededPerGroup} is, for inconclusive steps only, the smaller of
 * {@link RunsNeeded#toDetect} and {@link RunsNeeded#toShowEquivalence} at 80 % power and level α
 * from {@link LogRatio#betweenRunSdLog()}; 0 otherwise.
 *
 * <p>Steps with fewer than two runs in a group, or no figures, cannot have a {@link LogRatio};
 * callers report them as inconclusive with the reason and leave them out of the family.
 */
public final class RatioDecisions {
  /** The power that {@code runsNeededPerGroup} plans for. */
  public static final double PLANNED_POWER = 0.8;

  /** The decision for one step; p-values are NaN where undefined. */
  public record Decision(Verdict verdict, double pDifferenceAdjusted, double pEquivalenceAdjusted,
      boolean realButNegligible, boolean beyondMargin, int runsNeededPerGroup) {}

  private RatioDecisions() {}

  /**
   * @param steps the family, one {@link LogRatio} per step, in the caller's order
   * @param lowerIsBetter true for latency (θ < 1 = faster), false for throughput (θ > 1 = faster)
   * @return one decision per step, in the same order
   */
  public static List<Decision> decide(List<LogRatio> steps, double alpha, double margin, Correction correction,
      boolean lowerIsBetter) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be in (0, 1), not " + alpha);
    }
    if (!(margin >= 0) || Double.isInfinite(margin)) {
      throw new IllegalArgumentException("margin must be 0 or more, not " + margin);
    }
    int m = steps.size();
    double[] pDifference = new double[m];
    double[] pEquivalence = new double[m];
    for (int i = 0; i < m; i++) {
      pDifference[i] = steps.get(i).pDifference();
      pEquivalence[i] = steps.get(i).pEquivalence(margin);
    }
    double[] differenceAdjusted = correction.adjust(pDifference);
    double[] equivalenceAdjusted = correction.adjust(pEquivalence);
    double upper = 1 + margin;
    double lower = 1 / upper;
    List<Decision> decisions = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      LogRatio step = steps.get(i);
      Interval shown = step.interval(1 - alpha);
      boolean excludesOne = shown.low() > 1 || shown.high() < 1;
      if (equivalenceAdjusted[i] <= alpha) {
        decisions.add(new Decision(Verdict.EQUIVALENT, differenceAdjusted[i], equivalenceAdjusted[i], excludesOne, false, 0));
      } else if (differenceAdjusted[i] <= alpha) {
        boolean up = step.meanLogDifference() > 0;
        Verdict verdict = up == lowerIsBetter ? Verdict.SLOWER : Verdict.FASTER;
        boolean beyond = up ? shown.low() > upper : shown.high() < lower;
        decisions.add(new Decision(verdict, differenceAdjusted[i], equivalenceAdjusted[i], false, beyond, 0));
      } else {
        double sd = step.betweenRunSdLog();
        int runs = Math.min(RunsNeeded.toDetect(sd, margin, alpha, PLANNED_POWER),
            RunsNeeded.toShowEquivalence(sd, margin, alpha, PLANNED_POWER));
        decisions.add(new Decision(Verdict.INCONCLUSIVE, differenceAdjusted[i], equivalenceAdjusted[i], false, false, runs));
      }
    }
    return List.copyOf(decisions);
  }
}
