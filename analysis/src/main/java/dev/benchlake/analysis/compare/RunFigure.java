package dev.benchlake.analysis.compare;

/**
 * One run's figures in one step: the run is the unit of replication, and these are its
 * replicates of each family ({@link Family}). Null where the run has none (no successful task;
 * a throughput needs two successful tasks with an end time).
 *
 * @param medianS the median latency of its successful tasks, after the outlier policy
 * @param p99S their p99
 * @param throughputPerS successful tasks per second
 * @param errorRate failed / all of its tasks
 */
public record RunFigure(String runId, Double medianS, Double p99S, Double throughputPerS, double errorRate) {}
