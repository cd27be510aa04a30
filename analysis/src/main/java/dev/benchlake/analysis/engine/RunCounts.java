package dev.benchlake.analysis.engine;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The task counts of one run in one step (warm-up tasks excluded): tasks, successes, failures by
 * code (SQLSTATE, else the message), and when the first and the last successful task ended.
 *
 * @param firstEndUs earliest end of a successful task (µs since the epoch), {@link Long#MAX_VALUE}
 *     when unknown
 * @param lastEndUs latest end of a successful task, {@link Long#MIN_VALUE} when unknown
 */
public record RunCounts(String step, int run, long tasks, long ok, long firstEndUs, long lastEndUs,
    Map<String, Long> errorsByCode) implements Serializable {
  /** Distinct error codes kept per run and step; the rest are counted under {@link #OTHER_ERRORS}. */
  public static final int MAX_CODES = 100;
  public static final String OTHER_ERRORS = "(other errors)";

  public long errors() {
    return tasks - ok;
  }

  /**
   * Successful tasks per second: the {@code ok − 1} completions after the first, over the time
   * from the first to the last (the usual estimate of a rate from event times); NaN when fewer
   * than two successful tasks have an end time or they all ended at once.
   */
  public double throughputPerS() {
    return ok >= 2 && lastEndUs > firstEndUs && firstEndUs != Long.MAX_VALUE
        ? (ok - 1) / ((lastEndUs - firstEndUs) / 1e6) : Double.NaN;
  }

  /** The counts of the same run and step over both parts. */
  public RunCounts merge(RunCounts other) {
    TreeMap<String, Long> errors = new TreeMap<>(errorsByCode);
    other.errorsByCode.forEach((code, count) -> addError(errors, code, count));
    return new RunCounts(step, run, tasks + other.tasks, ok + other.ok, Math.min(firstEndUs, other.firstEndUs),
        Math.max(lastEndUs, other.lastEndUs), errors);
  }

  /** Adds {@code count} failures of {@code code}, folding codes beyond {@link #MAX_CODES}. */
  static void addError(Map<String, Long> errors, String code, long count) {
    String key = errors.containsKey(code) || errors.size() < MAX_CODES ? code : OTHER_ERRORS;
    errors.merge(key, count, Long::sum);
  }
}
