package dev.benchlake.analysis.stats;

import dev.benchlake.analysis.compare.Correction;
import java.util.ArrayList;
import java.util.List;

/** STAND-IN for branch trend's verdict core (replaced at merge): verdicts of a family of ratios. */
public final class RatioDecisions {
  public record Decision(Verdict verdict, double pDifferenceAdjusted, double pEquivalenceAdjusted,
      boolean realButNegligible, boolean beyondMargin, int runsNeededPerGroup) {}

  private RatioDecisions() {}

  public static List<Decision> decide(List<LogRatio> steps, double alpha, double margin, Correction correction,
      boolean lowerIsBetter) {
    double[] pd = steps.stream().mapToDouble(LogRatio::pDifference).toArray();
    double[] pe = steps.stream().mapToDouble(r -> r.pEquivalence(margin)).toArray();
    double[] pdAdj = correction.adjust(pd);
    double[] peAdj = correction.adjust(pe);
    List<Decision> out = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      LogRatio r = steps.get(i);
      boolean differs = pdAdj[i] < alpha;
      Interval ci = r.interval(1 - alpha);
      boolean beyond = ci.bounded() && (ci.low() > 1 + margin || ci.high() < 1 / (1 + margin));
      Verdict v;
      if (peAdj[i] < alpha) {
        v = Verdict.EQUIVALENT;
      } else if (differs) {
        boolean up = r.meanLogDifference > 0;
        v = up == lowerIsBetter ? Verdict.SLOWER : Verdict.FASTER;
      } else {
        v = Verdict.INCONCLUSIVE;
      }
      out.add(new Decision(v, pdAdj[i], peAdj[i], v == Verdict.EQUIVALENT && differs, beyond,
          RunsNeeded.perGroup(r.betweenRunSdLog(), alpha, margin)));
    }
    return out;
  }
}
