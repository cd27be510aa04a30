package dev.benchlake.analysis.engine;

/**
 * Walks the distinct latencies of a baseline and a candidate array (both sorted, packed) in
 * ascending order, telling at each how many values of each group equal it. The one pass that the
 * rank statistics share: Mann–Whitney's U and tie term, Kolmogorov–Smirnov's D.
 */
final class MergedCursor {
  private final RunPacking packing;
  private final long[] baseline;
  private final long[] candidate;
  private int b;
  private int c;
  /** The current distinct latency. */
  long latencyNs;
  /** How many baseline values equal {@link #latencyNs}. */
  long baselineTies;
  /** How many candidate values equal {@link #latencyNs}. */
  long candidateTies;

  MergedCursor(RunPacking packing, long[] baseline, long[] candidate) {
    this.packing = packing;
    this.baseline = baseline;
    this.candidate = candidate;
  }

  /** Moves to the next distinct latency; false at the end. */
  boolean next() {
    boolean moreBase = b < baseline.length;
    boolean moreCand = c < candidate.length;
    if (!moreBase && !moreCand) {
      return false;
    }
    long nextBase = moreBase ? packing.latencyNs(baseline[b]) : Long.MAX_VALUE;
    long nextCand = moreCand ? packing.latencyNs(candidate[c]) : Long.MAX_VALUE;
    latencyNs = !moreCand || (moreBase && nextBase <= nextCand) ? nextBase : nextCand;
    int b0 = b;
    while (b < baseline.length && packing.latencyNs(baseline[b]) == latencyNs) {
      b++;
    }
    int c0 = c;
    while (c < candidate.length && packing.latencyNs(candidate[c]) == latencyNs) {
      c++;
    }
    baselineTies = b - b0;
    candidateTies = c - c0;
    return true;
  }
}
