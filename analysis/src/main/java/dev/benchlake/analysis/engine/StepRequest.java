package dev.benchlake.analysis.engine;

import java.io.Serializable;

/**
 * What the driver asks one partition about one step, once it knows where every rank lies.
 *
 * <ul>
 *   <li>Lookups: the value at local rank {@code localRanks[i]} of bucket {@code buckets[i]}, counting
 *       only the values of {@code targets[i]}: a run index when {@code ≥ 0}, the group
 *       {@code −1 − targets[i]} otherwise.
 *   <li>Kolmogorov–Smirnov: when {@code ksBaselineN > 0}, for each bucket of this partition the
 *       number of values of each group in lower buckets, so that the partition knows the global
 *       empirical CDFs at each of its values.
 *   <li>Extraction: every value of a group (small groups only).
 * </ul>
 */
record StepRequest(String step, long[] buckets, int[] targets, long[] localRanks,
    long[] ksBuckets, long[] ksBaselineBelow, long[] ksCandidateBelow, long ksBaselineN, long ksCandidateN,
    boolean extractBaseline, boolean extractCandidate) implements Serializable {

  /** The answer: {@code values[i]} for lookup {@code i}; {@code D·n_b·n_c} over this partition. */
  record Answer(String step, long[] values, long ksScaled, long[] baseline, long[] candidate) implements Serializable {}
}
