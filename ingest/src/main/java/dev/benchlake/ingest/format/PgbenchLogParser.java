package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.warehouse.RejectType;

/**
 * One line of a pgbench {@code -l} per-transaction log:
 * {@code client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries]}.
 *
 * <ul>
 *   <li>{@code time} is the latency in µs; with {@code --rate} it runs from the scheduled start and
 *       includes {@code schedule_lag}: {@code latency_ns = time × 1000},
 *       {@code service_ns = (time − schedule_lag) × 1000}. {@code time_epoch.time_us} is the end.
 *       {@code start_ts} is the actual start, end − service time.
 *   <li>{@code time} = {@code skipped} (too late to start under {@code --latency-limit}),
 *       {@code failed}, {@code serialization} (SQLSTATE 40001) or {@code deadlock} (40P01) is a
 *       task with {@code ok = false} and no latency.
 *   <li>Seven fields are ambiguous (schedule_lag with {@code --rate}, retries with
 *       {@code --max-tries}); the format decides per run from the file's head (see
 *       {@link PgbenchLogFormat}).
 *   <li>The step is the base step ({@code --step}, else {@code pgbench}) for script 0, with
 *       {@code #N} appended for script N of several {@code -f}/{@code -b} scripts.
 * </ul>
 */
final class PgbenchLogParser implements LineParser {
  private static final long serialVersionUID = 1L;

  private final String step;
  private final boolean seventhIsLag;

  PgbenchLogParser(String step, boolean seventhIsLag) {
    this.step = step;
    this.seventhIsLag = seventhIsLag;
  }

  @Override
  public void parse(long lineNo, String line, ParseSink sink) {
    if (line.isBlank()) {
      sink.metadata(lineNo);
      return;
    }
    String[] f = PgbenchLogFiles.fields(line);
    if (f.length < 6 || f.length > 8) {
      sink.reject(lineNo, line, RejectType.FIELD_COUNT, null, f.length + " fields; a pgbench log line has 6 to 8"
          + " (client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries])");
      return;
    }
    for (int i : new int[] {0, 1, 3, 4, 5}) {
      if (!PgbenchLogFiles.isInteger(f[i])) {
        sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, FIELD_NAMES[i],
            FIELD_NAMES[i] + " is not an integer: '" + f[i] + "'");
        return;
      }
    }
    Long lagUs = null;
    Long retries = null;
    if (f.length == 8) {
      lagUs = integer(f[6]);
      retries = integer(f[7]);
      if (lagUs == null || retries == null) {
        sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, lagUs == null ? "schedule_lag" : "retries",
            "schedule_lag and retries must be integers: '" + f[6] + "', '" + f[7] + "'");
        return;
      }
    } else if (f.length == 7) {
      Long value = integer(f[6]);
      if (value == null) {
        sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, seventhIsLag ? "schedule_lag" : "retries",
            (seventhIsLag ? "schedule_lag" : "retries") + " is not an integer: '" + f[6] + "'");
        return;
      }
      if (seventhIsLag) {
        lagUs = value;
      } else {
        retries = value;
      }
    }
    long clientId = Long.parseLong(f[0]);
    if (clientId > Integer.MAX_VALUE) {
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "client_id", "client_id is out of range: " + f[0]);
      return;
    }
    long seq = Long.parseLong(f[1]);
    int script = (int) Math.min(Integer.MAX_VALUE, Long.parseLong(f[3]));
    long endUs;
    try {
      endUs = Math.addExact(Math.multiplyExact(Long.parseLong(f[4]), 1_000_000L), Long.parseLong(f[5]));
    } catch (ArithmeticException e) {
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "time_epoch",
          "time_epoch " + f[4] + " is out of range (beyond the year 2262)");
      return;
    }
    String taskStep = script == 0 ? step : step + "#" + script;
    String retriesNote = retries != null && retries > 0 ? " after " + retries + (retries == 1 ? " retry" : " retries") : "";
    switch (f[2]) {
      case "skipped" -> sink.task(lineNo, failed(taskStep, clientId, seq, endUs, "", "skipped: too late to start (--latency-limit)"));
      case "failed" -> sink.task(lineNo, failed(taskStep, clientId, seq, endUs, "", "failed" + retriesNote));
      case "serialization" -> sink.task(lineNo, failed(taskStep, clientId, seq, endUs, "40001", "serialization failure" + retriesNote));
      case "deadlock" -> sink.task(lineNo, failed(taskStep, clientId, seq, endUs, "40P01", "deadlock" + retriesNote));
      default -> {
        Long timeUs = integer(f[2]);
        if (timeUs == null) {
          sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, "time",
              "time is neither microseconds nor skipped/failed/serialization/deadlock: '" + f[2] + "'");
          return;
        }
        if (lagUs != null && lagUs > timeUs) {
          sink.reject(lineNo, line, RejectType.MISMATCH, "schedule_lag",
              "schedule_lag " + lagUs + " µs is longer than the latency " + timeUs + " µs");
          return;
        }
        long serviceUs = lagUs == null ? timeUs : timeUs - lagUs;
        if (timeUs > Long.MAX_VALUE / 1000L || serviceUs > endUs) {
          // Nanoseconds would wrap around, or the task would have started before 1970.
          sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "time", "time " + timeUs + " µs is out of range");
          return;
        }
        sink.task(lineNo, new ParsedTask("", taskStep, (int) clientId, seq, endUs - serviceUs, endUs,
            timeUs * 1000L, serviceUs * 1000L, null, false, true, "", ""));
      }
    }
  }

  private static final String[] FIELD_NAMES = {"client_id", "transaction_no", "time", "script_no", "time_epoch", "time_us"};

  private static ParsedTask failed(String step, long clientId, long seq, long endUs, String sqlstate, String error) {
    return new ParsedTask("", step, (int) clientId, seq, null, endUs, null, null, null, false, false, sqlstate, error);
  }

  private static Long integer(String s) {
    return PgbenchLogFiles.isInteger(s) ? Long.parseLong(s) : null;
  }
}
