package dev.benchlake.analysis.engine;

import dev.benchlake.analysis.stats.Moments;
import java.io.Serializable;

/**
 * What one partition knows about one step after sorting, small enough to collect: how many
 * values of each run fall in each bucket it holds (sparse: {@code entryRun[entryStart[k] ..
 * entryStart[k+1])} for bucket {@code buckets[k]}), moments and threshold counts per run, and the
 * parts of Mann–Whitney's U and tie term that pairs within one bucket contribute (pairs in
 * different buckets are ordered by their buckets, which the driver does from the counts).
 *
 * @param twoUWithin twice the candidate's U over pairs in the same bucket:
 *     {@code Σ_c 2·#(b < c) + #(b = c)}
 * @param tieTerm Σ (t³ − t) over the distinct latencies this partition holds
 */
record PartSummary(String step, int partition, long[] buckets, int[] entryStart, int[] entryRun, long[] entryCount,
    Moments[] runMoments, long[] runUnderThreshold, long twoUWithin, double tieTerm) implements Serializable {}
