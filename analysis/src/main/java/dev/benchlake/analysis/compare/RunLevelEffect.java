package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.Verdict;

/**
 * θ of one family of per-run figures in one step: the ratio of the geometric means of the per-run
 * figures (candidate over baseline), its Welch intervals on the logs, the tests and the verdict
 * that rest on them, and the variance components. Null where undefined; {@link #unavailable} then
 * says why.
 *
 * @param metric {@code median}, {@code p99} or {@code throughput}
 * @param ci95 the 1 − α interval when α = 0.05 (the interval the difference test rests on)
 * @param ci90 the 1 − 2α interval when α = 0.05 (TOST: equivalence when it lies in the band)
 * @param ciDecision the 1 − α interval, whatever α: the one faster/slower rest on and every
 *     table and sentence shows
 * @param ciEquivalence the 1 − 2α interval, whatever α: the one equivalence rests on
 * @param p two-sided Welch p on the logs (H0: θ = 1)
 * @param pAdjusted {@code p} adjusted across the steps of the comparison
 * @param pEquivalenceAdjusted the TOST p-value (H0: θ outside the band) adjusted across the steps
 * @param betweenRunSdLog pooled SD of the logs of the per-run figures
 * @param withinRunSeLog root mean square of the runs' own standard errors of the log figure
 *     (null for throughput)
 * @param runsNeeded runs per group that 80 % power would need, from the between-run SD
 * @param bootstrapCi95 two-stage bootstrap interval (runs, then tasks within runs) for the latency
 *     quantiles; null for throughput
 * @param realButNegligible equivalent, and yet the interval excludes 1
 * @param beyondMargin the whole 1 − α interval lies beyond the margin
 */
public record RunLevelEffect(String metric, Double ratio, Range ci95, Range ci90, Range ciDecision,
    Range ciEquivalence, Double p, Double pAdjusted,
    Double pEquivalenceAdjusted, Double betweenRunSdLog, Double withinRunSeLog, Integer runsNeeded,
    Range bootstrapCi95, Verdict verdict, boolean realButNegligible, boolean beyondMargin, String unavailable) {

  /** An effect that cannot be estimated, with the reason. */
  public static RunLevelEffect unavailable(String metric, String reason) {
    return new RunLevelEffect(metric, null, Range.UNBOUNDED, Range.UNBOUNDED, Range.UNBOUNDED, Range.UNBOUNDED, null,
        null, null, null, null, null,
        Range.UNBOUNDED, Verdict.INCONCLUSIVE, false, false, reason);
  }
}
