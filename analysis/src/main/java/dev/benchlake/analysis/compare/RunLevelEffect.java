package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.RunsAdvice;
import dev.benchlake.analysis.stats.Verdict;

/**
 * θ of one family of per-run figures in one step: the estimate ({@link Estimate}: the ratio of
 * the geometric means of the per-run figures, candidate over baseline, with its intervals), the
 * decision of its family across the steps ({@link Decision}), and the variance components. Where
 * θ cannot be estimated the estimate is {@link Estimate#NONE}, the decision null and
 * {@link #unavailable} says why.
 *
 * @param withinRunSeLog root mean square of the runs' own standard errors of the log figure
 *     (null for throughput, and where undefined)
 * @param bootstrapCi95 two-stage bootstrap interval (runs, then tasks within runs) for the latency
 *     quantiles; null for throughput
 * @param analysis {@code paired} or {@code unpaired} ({@link dev.benchlake.analysis.report.Pairing#analysis})
 * @param pairs for the paired analysis, the pairs of runs with this family's figure and the runs
 *     dropped for want of a partner; null for the unpaired analysis
 */
public record RunLevelEffect(Family family, Estimate estimate, Decision decision, Double withinRunSeLog,
    Range bootstrapCi95, String unavailable, String analysis, RunPairs pairs) {

  /** An effect that cannot be estimated, with the reason. */
  static RunLevelEffect unavailable(Family family, String reason, String analysis, RunPairs pairs) {
    return new RunLevelEffect(family, Estimate.NONE, null, null, Range.UNBOUNDED, reason, analysis, pairs);
  }

  /** Whether θ is the paired one: the geometric mean of the per-pair ratios. */
  public boolean paired() {
    return pairs != null;
  }

  /** {@code median}, {@code p99}, {@code throughput}. */
  public String metric() {
    return family.metric();
  }

  /** The family's verdict: its decision's, {@code inconclusive} without one. */
  public Verdict verdict() {
    return decision == null ? Verdict.INCONCLUSIVE : decision.verdict();
  }

  /** What more runs would do; null when decided or not estimable. */
  public RunsAdvice runsAdvice() {
    return decision == null ? null : decision.runsNeeded();
  }

  /** The runs per group that would decide it, or null ({@link RunsAdvice#runs}). */
  public Integer runsNeeded() {
    return runsAdvice() == null ? null : runsAdvice().runs();
  }

  /** The difference p adjusted across the steps; null where undefined. */
  public Double pAdjusted() {
    return decision == null ? null : finite(decision.pDifferenceAdjusted());
  }

  /** The TOST p adjusted across the steps; null where undefined. */
  public Double pEquivalenceAdjusted() {
    return decision == null ? null : finite(decision.pEquivalenceAdjusted());
  }

  private static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }
}
