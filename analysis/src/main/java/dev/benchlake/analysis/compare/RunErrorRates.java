package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Sides;
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

  static RunErrors compare(Sides<List<Double>> rates) {
    Sides<Double> means = rates.map(RunErrorRates::mean);
    if (rates.either(List::isEmpty)) {
      return new RunErrors(means, null, Range.UNBOUNDED, null);
    }
    double mb = means.baseline();
    double mc = means.candidate();
    double vb = variance(rates.baseline(), mb);
    double vc = variance(rates.candidate(), mc);
    int nb = rates.baseline().size();
    int nc = rates.candidate().size();
    WelchT.Result welch = WelchT.test(mc, vc, nc, mb, vb, nb);
    Range ci = Range.UNBOUNDED;
    if (Double.isFinite(welch.df())) {
      double half = new TDistribution(null, welch.df()).inverseCumulativeProbability(0.975) * Math.sqrt(vc / nc + vb / nb);
      ci = new Range(mc - mb - half, mc - mb + half);
    }
    return new RunErrors(means, mc - mb, ci, Double.isFinite(welch.p()) ? welch.p() : null);
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
