package dev.benchlake.analysis.report;

import java.util.List;

/**
 * The run as the unit of replication: one median (and throughput) per run, compared with the
 * exact Mann–Whitney test, which is valid for few runs.
 *
 * @param baselineMediansS per-run medians, in the order of {@code baselineRunIds}
 * @param p two-sided p-value of the medians (null without a run with successful tasks per group)
 * @param pAdjusted {@code p} adjusted across the compared steps
 * @param enoughRuns whether this many runs can give a p-value below alpha at all (after the
 *     correction, in the best case)
 * @param runsNeeded when not, how many runs per group could
 * @param smallestPossibleP the floor of {@code p} for these run counts
 * @param throughputP the same test on the per-run throughputs (successful tasks per second)
 */
public record RunLevel(List<String> baselineRunIds, List<String> candidateRunIds,
    List<Double> baselineMediansS, List<Double> candidateMediansS, Double p, Double pAdjusted,
    boolean enoughRuns, Integer runsNeeded, Double smallestPossibleP,
    List<Double> baselineThroughputPerS, List<Double> candidateThroughputPerS, Double throughputP) {

  /** A copy with the adjusted p-value and the run-count guidance. */
  public RunLevel withAdjustment(Double adjusted, boolean enough, Integer needed) {
    return new RunLevel(baselineRunIds, candidateRunIds, baselineMediansS, candidateMediansS, p, adjusted, enough,
        needed, smallestPossibleP, baselineThroughputPerS, candidateThroughputPerS, throughputP);
  }
}
