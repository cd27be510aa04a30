package dev.benchlake.analysis.engine;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The task counts of one run in one step (warm-up tasks excluded): tasks, successes, failures by
 * code (SQLSTATE, else the message), and the span the tasks covered (for throughput).
 *
 * @param startUs earliest start (µs since the epoch), {@link Long#MAX_VALUE} when unknown
 * @param endUs latest end (µs since the epoch), {@link Long#MIN_VALUE} when unknown
 */
public record RunCounts(String step, int run, long tasks, long ok, long startUs, long endUs,
    Map<String, Long> errorsByCode) implements Serializable {
  /** Distinct error codes kept per run and step; the rest are counted under {@link #OTHER_ERRORS}. */
  public static final int MAX_CODES = 100;
  public static final String OTHER_ERRORS = "(other errors)";

  public long errors() {
    return tasks - ok;
  }

  /** The duration the tasks covered, in seconds, or NaN when unknown or empty. */
  public double spanS() {
    return endUs > startUs && startUs != Long.MAX_VALUE ? (endUs - startUs) / 1e6 : Double.NaN;
  }

  /** The counts of the same run and step over both parts. */
  public RunCounts merge(RunCounts other) {
    TreeMap<String, Long> errors = new TreeMap<>(errorsByCode);
    other.errorsByCode.forEach((code, count) -> addError(errors, code, count));
    return new RunCounts(step, run, tasks + other.tasks, ok + other.ok, Math.min(startUs, other.startUs),
        Math.max(endUs, other.endUs), errors);
  }

  /** Adds {@code count} failures of {@code code}, folding codes beyond {@link #MAX_CODES}. */
  static void addError(Map<String, Long> errors, String code, long count) {
    String key = errors.containsKey(code) || errors.size() < MAX_CODES ? code : OTHER_ERRORS;
    errors.merge(key, count, Long::sum);
  }
}
