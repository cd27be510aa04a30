package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.compare.RunErrors;
import dev.benchlake.analysis.stats.WelchT;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Errors with the run as the unit: Welch's t on the per-run error rates (a rate per run, not on
 * logs since a rate may be 0), the difference of the mean rates and its 95 % interval. Tasks of one
 * run fail together (a stalled server, a full pool), so a test on pooled tasks (Fisher) is only
 * descriptive.
 */
final class RunErrorRates {
  private RunErrorRates() {}

  static RunErrors compare(List<Double> baseline, List<Double> candidate) {
    if (baseline.isEmpty() || candidate.isEmpty()) {
      return new RunErrors(mean(baseline), mean(candidate), null, Range.UNBOUNDED, null);
    }
    double mb = mean(baseline);
    double mc = mean(candidate);
    double vb = variance(baseline, mb);
    double vc = variance(candidate, mc);
    WelchT.Result welch = WelchT.test(mc, vc, candidate.size(), mb, vb, baseline.size());
    Range ci = Range.UNBOUNDED;
    if (Double.isFinite(welch.df())) {
      double half = new TDistribution(null, welch.df()).inverseCumulativeProbability(0.975)
          * Math.sqrt(vc / candidate.size() + vb / baseline.size());
      ci = new Range(mc - mb - half, mc - mb + half);
    }
    return new RunErrors(mb, mc, mc - mb, ci, Double.isFinite(welch.p()) ? welch.p() : null);
  }

  private static Double mean(List<Double> values) {
    return values.isEmpty() ? null : values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  private static double variance(List<Double> values, double mean) {
    if (values.size() < 2) {
      return Double.NaN;
    }
    return values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (values.size() - 1);
  }
}
