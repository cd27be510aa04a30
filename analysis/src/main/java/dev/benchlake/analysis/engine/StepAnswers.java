package dev.benchlake.analysis.engine;

import java.util.HashMap;
import java.util.Map;

/** The answers to a {@link StepQuery}. */
public final class StepAnswers {
  final Map<Long, Long>[] groupValues;
  final Map<Integer, Map<Long, Long>> runValues = new HashMap<>();
  long ksScaled;
  final long[][] extracted = new long[2][];

  @SuppressWarnings("unchecked")
  StepAnswers() {
    groupValues = new Map[] {new HashMap<Long, Long>(), new HashMap<Long, Long>()};
  }

  /** The latency at 0-based {@code rank} of group {@code g}; it must have been asked for. */
  public long groupValue(int group, long rank) {
    return require(groupValues[group].get(rank), "group " + group, rank);
  }

  /** The latency at 0-based {@code rank} of run {@code run}; it must have been asked for. */
  public long runValue(int run, long rank) {
    return require(runValues.getOrDefault(run, Map.of()).get(rank), "run " + run, rank);
  }

  /** {@code max_x |C(x)·n_b − B(x)·n_c|}, i.e. Kolmogorov–Smirnov's D times n_b·n_c. */
  public long ksScaled() {
    return ksScaled;
  }

  /** Every latency of group {@code g}, sorted; it must have been asked for. */
  public long[] extracted(int group) {
    if (extracted[group] == null) {
      throw new IllegalStateException("group " + group + " was not extracted");
    }
    return extracted[group];
  }

  private static long require(Long value, String of, long rank) {
    if (value == null) {
      throw new IllegalStateException("rank " + rank + " of " + of + " was not asked for");
    }
    return value;
  }
}
