package dev.benchlake.analysis.engine;

import dev.benchlake.core.cli.BadInputException;
import java.io.Serializable;

/**
 * One {@code long} per task: the latency in the high bits, the run's index in the low
 * {@code runBits}. Sorting packed values sorts by latency, then run, so a partition sorts
 * primitive arrays (no objects, no comparator) and still knows each value's run.
 */
public record RunPacking(int runBits) implements Serializable {
  /** Enough bits for {@code runs} run indexes. */
  public static RunPacking forRuns(int runs) {
    return new RunPacking(Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, runs - 1))));
  }

  public long pack(long latencyNs, int run) {
    if (latencyNs > maxLatencyNs() || latencyNs < minLatencyNs()) {
      throw new BadInputException("latency_ns " + latencyNs + " is outside the range a comparison of "
          + (1L << runBits) + " runs can hold (±" + maxLatencyNs() + " ns)");
    }
    return (latencyNs << runBits) | run;
  }

  public long latencyNs(long packed) {
    return packed >> runBits;
  }

  public int run(long packed) {
    return (int) (packed & ((1L << runBits) - 1));
  }

  /** The smallest packed value of {@code latencyNs} (the lowest run). */
  public long first(long latencyNs) {
    return latencyNs << runBits;
  }

  public long maxLatencyNs() {
    return Long.MAX_VALUE >> runBits;
  }

  public long minLatencyNs() {
    return Long.MIN_VALUE >> runBits;
  }
}
