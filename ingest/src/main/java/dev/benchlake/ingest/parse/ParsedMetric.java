package dev.benchlake.ingest.parse;

/**
 * One aggregate figure as a parser read it (see {@code WarehouseSchema.STEP_METRICS}).
 *
 * @param runPart which run of a multi-run source ("" for single-run sources)
 * @param intervalStartS seconds from the run's start, null for a whole-run figure
 * @param intervalS length of the interval in seconds, null when unknown or whole-run
 * @param metric e.g. {@code tps}, {@code latency_avg}
 * @param unit e.g. {@code 1/s}, {@code ms}, {@code count}
 * @param bucket the bucket value of a histogram row (in {@code unit} of the histogram), else null
 */
public record ParsedMetric(
    String runPart,
    String step,
    Double intervalStartS,
    Double intervalS,
    String metric,
    double value,
    String unit,
    Double bucket) {

  public ParsedMetric {
    runPart = runPart == null ? "" : runPart;
  }

  /** A whole-run figure of a single-run source. */
  public static ParsedMetric whole(String step, String metric, double value, String unit) {
    return new ParsedMetric("", step, null, null, metric, value, unit, null);
  }
}
