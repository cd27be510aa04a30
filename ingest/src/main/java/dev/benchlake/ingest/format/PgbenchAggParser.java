package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.warehouse.RejectType;

/**
 * One line of a pgbench {@code --aggregate-interval} log, as partial sums that
 * {@link PgbenchAggMerge} combines across the per-thread files of a run and turns into the final
 * metrics.
 *
 * <ul>
 *   <li>PostgreSQL 14 and older, variable width: {@code interval_start num_transactions sum_latency
 *       sum_latency_2 min_latency max_latency [sum_lag sum_lag_2 min_lag max_lag [skipped]]}
 *       (6, 10 or 11 fields).
 *   <li>PostgreSQL 15 and newer, always 15 fields: the above with zeros for what is off, then
 *       {@code skipped retried retries serialization_failures deadlock_failures}.
 * </ul>
 * Latencies are µs in the file.
 */
final class PgbenchAggParser implements LineParser {
  private static final long serialVersionUID = 1L;

  private final String step;
  private final long originEpochS;
  private final Double intervalS;

  /**
   * @param originEpochS the run's first interval start: interval starts are stored relative to it
   * @param intervalS the aggregate interval, when the planner could tell it
   */
  PgbenchAggParser(String step, long originEpochS, Double intervalS) {
    this.step = step;
    this.originEpochS = originEpochS;
    this.intervalS = intervalS;
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(long lineNo, String line, ParseSink sink) {
    if (line.isBlank()) {
      sink.metadata(lineNo);
      return;
    }
    String[] f = PgbenchLogFiles.fields(line);
    if (f.length != 6 && f.length != 10 && f.length != 11 && f.length != 15) {
      sink.reject(lineNo, line, RejectType.FIELD_COUNT, null,
          f.length + " fields; a pgbench aggregate line has 6, 10 or 11 (PostgreSQL 14 and older)"
          + " or 15 (PostgreSQL 15 and newer)");
      return;
    }
    double[] v = new double[f.length];
    for (int i = 0; i < f.length; i++) {
      Numerals.Read read = Numerals.decimal(f[i]);
      if (read.fault() == RejectType.NUMBER_FORMAT) {
        sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, "field " + (i + 1),
            "field " + (i + 1) + " is not a number: '" + f[i] + "'");
        return;
      }
      v[i] = read.value();
      if (!(v[i] >= 0) || !read.ok()) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "field " + (i + 1),
            "field " + (i + 1) + " is negative or not finite: '" + f[i] + "'");
        return;
      }
    }
    if (!PgbenchLogFiles.isInteger(f[0]) || !PgbenchLogFiles.isInteger(f[1])) {
      sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, null, "interval_start and num_transactions must be integers");
      return;
    }
    double start = v[0] - originEpochS;
    Emitter out = new Emitter(lineNo, sink, start);
    out.emit("transactions", v[1], "count");
    out.emit(PgbenchAggMerge.LATENCY_SUM_US, v[2], "us");
    out.emit(PgbenchAggMerge.LATENCY_SUM2_US2, v[3], "us2");
    if (v[1] > 0) {
      out.emit("latency_min", v[4] / 1000.0, "ms");
      out.emit("latency_max", v[5] / 1000.0, "ms");
    }
    // PostgreSQL 15 writes zeros for the lag of a run without --rate: no lag to report then.
    boolean lagShown = f.length == 10 || f.length == 11 || (f.length == 15 && (v[6] > 0 || v[9] > 0));
    if (lagShown) {
      out.emit(PgbenchAggMerge.LAG_SUM_US, v[6], "us");
      out.emit(PgbenchAggMerge.LAG_SUM2_US2, v[7], "us2");
      if (v[1] > 0) {
        out.emit("lag_min", v[8] / 1000.0, "ms");
        out.emit("lag_max", v[9] / 1000.0, "ms");
      }
    }
    if (f.length >= 11) {
      out.emit("skipped", v[10], "count");
    }
    if (f.length == 15) {
      out.emit("retried", v[11], "count");
      out.emit("retries", v[12], "count");
      out.emit("failures_serialization", v[13], "count");
      out.emit("failures_deadlock", v[14], "count");
    }
  }

  private final class Emitter {
    private final long lineNo;
    private final ParseSink sink;
    private final double start;

    Emitter(long lineNo, ParseSink sink, double start) {
      this.lineNo = lineNo;
      this.sink = sink;
      this.start = start;
    }

    void emit(String metric, double value, String unit) {
      sink.metric(lineNo, new ParsedMetric("", step, start, intervalS, metric, value, unit, null));
    }
  }
}
