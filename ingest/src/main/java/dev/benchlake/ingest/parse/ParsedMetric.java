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
 * @param health the step's table health (loadgen's manifest), else null
 */
public record ParsedMetric(
    String runPart,
    String step,
    Double intervalStartS,
    Double intervalS,
    String metric,
    double value,
    String unit,
    Double bucket,
    Health health) {

  public ParsedMetric {
    runPart = runPart == null ? "" : runPart;
  }

  /** A figure without table health (every source but loadgen's manifest). */
  public ParsedMetric(String runPart, String step, Double intervalStartS, Double intervalS, String metric,
      double value, String unit, Double bucket) {
    this(runPart, step, intervalStartS, intervalS, metric, value, unit, bucket, null);
  }

  /**
   * The cells of step_metrics' table health columns ({@code WarehouseSchema.STEP_METRICS}, format 3).
   *
   * @param before a row of {@code WarehouseSchema.tableHealth()}, or null
   * @param after likewise
   */
  public record Health(org.apache.spark.sql.Row before, org.apache.spark.sql.Row after, Integer tablesAutovacuumed,
      Integer tablesAutoanalyzed, String betweenSteps) implements java.io.Serializable {}

  /** A whole-run figure of a single-run source. */
  public static ParsedMetric whole(String step, String metric, double value, String unit) {
    return new ParsedMetric("", step, null, null, metric, value, unit, null);
  }
}
