package dev.benchlake.analysis.compare;

import java.util.List;

/**
 * The run as the unit of replication: per run its median, p99, throughput and error rate, and θ
 * of each family ({@link RunLevelEffect}). The median's θ decides the verdict; p99 and throughput
 * are their own families, with their own corrections across steps.
 *
 * @param baselineMediansS per-run medians, in the order of {@code baselineRunIds} (runs with
 *     successful tasks)
 * @param baselineThroughputPerS successful tasks per second of each run; null where undefined
 * @param baselineErrorRates failed / all tasks of each run
 * @param variance which variance component dominates, in words
 */
public record RunLevel(List<String> baselineRunIds, List<String> candidateRunIds,
    List<Double> baselineMediansS, List<Double> candidateMediansS, List<Double> baselineP99S, List<Double> candidateP99S,
    List<Double> baselineThroughputPerS, List<Double> candidateThroughputPerS,
    List<Double> baselineErrorRates, List<Double> candidateErrorRates,
    RunLevelEffect median, RunLevelEffect p99, RunLevelEffect throughput, RunErrors errors, String variance) {

  /** Runs of the baseline and of the candidate with successful tasks (those θ rests on): {@code 5 vs 5}. */
  public String counts() {
    return withLatencies(baselineMediansS) + " vs " + withLatencies(candidateMediansS);
  }

  private static long withLatencies(List<Double> medians) {
    return medians.stream().filter(java.util.Objects::nonNull).count();
  }

  public RunLevel withEffects(RunLevelEffect medianEffect, RunLevelEffect p99Effect, RunLevelEffect throughputEffect,
      String varianceSentence) {
    return new RunLevel(baselineRunIds, candidateRunIds, baselineMediansS, candidateMediansS, baselineP99S,
        candidateP99S, baselineThroughputPerS, candidateThroughputPerS, baselineErrorRates, candidateErrorRates,
        medianEffect, p99Effect, throughputEffect, errors, varianceSentence);
  }
}
