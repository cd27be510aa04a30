package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.BootstrapMedianRatio;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.analysis.stats.RandomRanks;
import java.util.List;

/**
 * What one step's figures need from its sorted latencies, decided before any value is read: the
 * ranks of each side's summary quantiles and ECDF, each run's median and p99, the
 * Kolmogorov–Smirnov statistic, the bootstrap's ranks and the Hodges–Lehmann sample. Immutable:
 * {@link #query()} asks the engine, and {@link StepFigures#of} turns the answers into figures with
 * this plan, so there is one way, in one order, from layout to figures.
 *
 * @param layout the step's layout on the engine, null when no run has a successful task
 * @param n each side's successful latencies
 * @param bootstrap the pooled median ratio's resamples; null unless both sides have latencies
 * @param hodgesLehmannRanks each side's sampled ranks when a side exceeds the exact limit; null:
 *     every value is extracted
 */
record StepPlan(String step, StepLayout layout, RunGroups groups, CompareRequest request, Sides<Long> n,
    BootstrapMedianRatio.Plan bootstrap, Sides<long[]> hodgesLehmannRanks, StepQuery query) {
  /** p0 (min) … p100 (max) of the report's sides. */
  static final double[] SUMMARY = {0, 0.5, 0.9, 0.95, 0.99, 0.999, 1};
  /** Where the plotted inverse ECDF is sampled: every percent, then the tail. */
  static final double[] ECDF = ecdfProbabilities();
  /** Per-run quantiles: the median and the p99, the run-level latency figures. */
  static final double[] PER_RUN = {0.5, 0.99};

  static StepPlan of(String step, StepLayout layout, RunGroups groups, CompareRequest request) {
    Sides<Long> n = Sides.by(side -> layout == null ? 0L : layout.n(side.index()));
    StepQuery query = new StepQuery();
    for (Side side : Side.values()) {
      long count = n.get(side);
      for (double[] probabilities : List.of(SUMMARY, ECDF)) {
        for (double p : count > 0 ? probabilities : new double[0]) {
          LinearQuantile.Position at = LinearQuantile.position(count, p);
          query.groupRanks(side.index(), at.lowerRank(), at.upperRank());
        }
      }
    }
    for (int run = 0; layout != null && run < groups.runIds().size(); run++) {
      if (layout.runN(run) > 0) {
        for (double p : PER_RUN) {
          LinearQuantile.Position at = LinearQuantile.position(layout.runN(run), p);
          query.runRanks(run, at.lowerRank(), at.upperRank());
        }
      }
    }
    if (!n.both(count -> count > 0)) {
      return new StepPlan(step, layout, groups, request, n, null, null, query);
    }
    query.ks();
    CompareRequest.Tuning tuning = request.tuning();
    BootstrapMedianRatio.Plan bootstrap = BootstrapMedianRatio.plan(n.candidate(), n.baseline(),
        tuning.bootstrapResamples(), tuning.seed());
    query.groupRanks(Side.CANDIDATE.index(), bootstrap.distinctCandidateRanks());
    query.groupRanks(Side.BASELINE.index(), bootstrap.distinctBaselineRanks());
    int limit = tuning.hodgesLehmannExactLimit();
    Sides<long[]> sampled = null;
    if (n.both(count -> count <= limit)) {
      query.extract(Side.BASELINE.index()).extract(Side.CANDIDATE.index());
    } else {
      sampled = n.mapWithSide((side, count) -> RandomRanks.sample(count, limit, tuning.seed() + side.index()));
      for (Side side : Side.values()) {
        query.groupRanks(side.index(), sampled.get(side));
      }
    }
    return new StepPlan(step, layout, groups, request, n, bootstrap, sampled, query);
  }

  /** Whether both sides have successful latencies: the task-level tests need them. */
  boolean bothHaveLatencies() {
    return bootstrap != null;
  }

  private static double[] ecdfProbabilities() {
    double[] p = new double[104];
    for (int i = 0; i < 100; i++) {
      p[i] = i / 100.0;
    }
    p[100] = 0.995;
    p[101] = 0.999;
    p[102] = 0.9999;
    p[103] = 1;
    return p;
  }
}
