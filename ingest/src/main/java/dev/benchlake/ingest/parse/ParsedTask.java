package dev.benchlake.ingest.parse;

/**
 * One task as a parser read it, before it gets its run id (see {@code WarehouseSchema.TASKS}).
 * Times of day are microseconds since the epoch (UTC), the precision of a Spark timestamp;
 * durations are nanoseconds. Null means the source does not know.
 *
 * @param runPart which run of a multi-run source this task belongs to ("" for single-run sources)
 */
public record ParsedTask(
    String runPart,
    String step,
    int clientId,
    long seq,
    Long startEpochUs,
    Long endEpochUs,
    Long latencyNs,
    Long serviceNs,
    Long waitNs,
    boolean warmup,
    boolean ok,
    String sqlstate,
    String error) {

  public ParsedTask {
    runPart = runPart == null ? "" : runPart;
  }
}
