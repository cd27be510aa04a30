package dev.benchlake.analysis.compare;

import java.util.Map;

/**
 * One group (baseline or candidate) in one step. Counts cover every task that is not warm-up;
 * latency figures (seconds, from the intended start) cover successful tasks only, after the
 * outlier policy, and are null when there are none. Quantiles are numpy's {@code linear} ones;
 * {@code stddevS} is the sample standard deviation ({@code ddof = 1}).
 *
 * @param runs runs of the group with tasks in this step
 * @param errorsByCode failures per SQLSTATE (else message), most frequent first
 * @param underThreshold successful tasks faster than {@code --threshold}; null without one
 * @param outliersRemoved successful tasks the outlier policy left out of the latency figures
 * @param errorRate errors / tasks of the group's tasks pooled (descriptive; the run-level
 *     comparison is {@link RunErrors}); null without tasks
 * @param unfilteredP99S the p99 of every successful task, before the outlier policy (the same as
 *     {@code p99S} with {@code --outliers none}): a filtered tail is never shown alone
 * @param unfilteredMaxS the max before the outlier policy
 */
public record GroupStatistics(int runs, long tasks, long ok, long errors, Map<String, Long> errorsByCode,
    Double minS, Double p50S, Double p90S, Double p95S, Double p99S, Double p999S, Double maxS,
    Double meanS, Double stddevS, Long underThreshold, long outliersRemoved, Double errorRate,
    Double unfilteredP99S, Double unfilteredMaxS) {}
