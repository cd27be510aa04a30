package dev.benchlake.ingest.parse;

import dev.benchlake.warehouse.RejectType;

/**
 * Where a parser puts what it read. Every line of a file gets exactly one verdict: it produced
 * tasks or metrics, it is metadata of the format (a header, a comment, a blank line, a banner), or
 * it is rejected with a reason a person can act on. The engine checks that the verdicts add up to
 * the file's line count.
 *
 * <p>Verdicts are given in line order. A line may produce several metrics (a sysbench interval
 * line) but never a metric and a reject.
 */
public interface ParseSink {
  void task(long lineNo, ParsedTask task);

  void metric(long lineNo, ParsedMetric metric);

  /**
   * @param type the kind of fault, for grouping ({@code rejects.error_type})
   * @param column the field at fault, as the format names it ({@code time_us}), or null when no
   *     one field is (a line with the wrong number of fields)
   * @param reason a human reason, e.g. {@code "time_us is not an integer: 'x'"}
   */
  void reject(long lineNo, String rawLine, RejectType type, String column, String reason);

  /** The line belongs to the format but carries no row (header, comment, blank, banner). */
  void metadata(long lineNo);

  /**
   * A fact about the whole run found in the file (e.g. {@code clients=8}, the server version); it
   * ends up in the run's dimensions or {@code metadata_json}. Not a line verdict.
   */
  void fact(String runPart, String key, String value);
}
