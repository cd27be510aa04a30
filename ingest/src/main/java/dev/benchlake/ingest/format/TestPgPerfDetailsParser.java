package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.warehouse.RejectType;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A TestPostgresqlPerf {@code details.<app-guid>.txt}: {@code ApplicationId TAB RunningTasks TAB
 * TaskDuration TAB EndTime}, one line per task.
 *
 * <ul>
 *   <li>TaskDuration is in .NET ticks (100 ns): {@code latency_ns = ticks × 100}. Every task was
 *       submitted at once to a connection pool, so the duration includes the wait for a connection:
 *       it is a latency from the intended start; the service time is unknown (null).
 *   <li>{@code -1} marks a failed task ({@code ok = false}, no latency, EndTime {@code 00:00:00}
 *       meaning "unknown", so no end time). Its error message is the next unused message of the
 *       summary file: the summary lists them in the order they happened, as the details list the
 *       tasks.
 *   <li>EndTime is a wall clock {@code HH:MM:SS} with no date and no time zone. It is stored as
 *       {@code end_ts} on the date given by {@code --label date=YYYY-MM-DD}, else on 1970-01-01
 *       (the epoch: "date unknown"), read as UTC. Without a date the run's {@code started_at} and
 *       {@code finished_at} stay null. {@code start_ts} stays null: the end is truncated to the
 *       second, so end − duration would pretend a precision the file does not have.
 *   <li>RunningTasks (tasks in flight when it ended) has no column; its maximum is kept as a fact.
 *   <li>There is one client application per file and no connection id: {@code client_id = 0},
 *       {@code seq} = line number − 1.
 * </ul>
 */
final class TestPgPerfDetailsParser implements DocumentParser {
  private static final long serialVersionUID = 1L;
  static final Pattern GUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  static final Pattern LINE = Pattern.compile(GUID.pattern() + "\\t\\d+\\t-?\\d+\\t\\d{2}:\\d{2}:\\d{2}");
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private final String step;
  private final String applicationId;
  private final Long dateEpochDay;
  private final List<String> messages;

  /**
   * @param applicationId the GUID of the file name, or null when the name carries none
   * @param dateEpochDay the day of the run, or null when unknown
   * @param messages the summary's error messages, in order (empty without a summary)
   */
  TestPgPerfDetailsParser(String step, String applicationId, Long dateEpochDay, List<String> messages) {
    this.step = step;
    this.applicationId = applicationId;
    this.dateEpochDay = dateEpochDay;
    this.messages = List.copyOf(messages);
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    int failures = 0;
    long maxRunning = 0;
    long dayStartUs = (dateEpochDay == null ? 0 : dateEpochDay) * MICROS_PER_DAY;
    for (int i = 0; i < lines.size(); i++) {
      long lineNo = i + 1;
      String line = lines.get(i);
      if (line.isBlank()) {
        sink.metadata(lineNo);
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 4) {
        sink.reject(lineNo, line, RejectType.FIELD_COUNT, null, f.length + " tab-separated fields; a details line has 4"
            + " (ApplicationId, RunningTasks, TaskDuration, EndTime)");
        continue;
      }
      if (!GUID.matcher(f[0]).matches()) {
        sink.reject(lineNo, line, RejectType.SYNTAX, "ApplicationId", "ApplicationId is not a GUID: '" + f[0] + "'");
        continue;
      }
      if (applicationId != null && !f[0].equalsIgnoreCase(applicationId)) {
        sink.reject(lineNo, line, RejectType.MISMATCH, "ApplicationId",
            "ApplicationId " + f[0] + " is not this file's " + applicationId);
        continue;
      }
      Numerals.IntegerRead runningRead = Numerals.integer(f[1]);
      Numerals.IntegerRead ticksRead = Numerals.integer(f[2]);
      if (runningRead.fault() == RejectType.NUMBER_FORMAT || ticksRead.fault() == RejectType.NUMBER_FORMAT) {
        sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, null,
            "RunningTasks and TaskDuration must be integers: '" + f[1] + "', '" + f[2] + "'");
        continue;
      }
      long running = runningRead.ok() ? runningRead.value() : -1;
      long ticks = ticksRead.ok() ? ticksRead.value() : Long.MAX_VALUE;
      if (running < 0 || ticks < -1 || ticks > Long.MAX_VALUE / 100) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, null,
            "RunningTasks must be >= 0 and TaskDuration >= 0 (at most "
            + Long.MAX_VALUE / 100 + " ticks) or -1 (failed)");
        continue;
      }
      Integer secondOfDay = secondOfDay(f[3]);
      if (secondOfDay == null) {
        sink.reject(lineNo, line, RejectType.SYNTAX, "EndTime", "EndTime is not HH:MM:SS: '" + f[3] + "'");
        continue;
      }
      maxRunning = Math.max(maxRunning, running);
      if (ticks == -1) {
        String error = failures < messages.size() ? messages.get(failures)
            : "failed (no message: the summary file has none for it)";
        failures++;
        sink.task(lineNo, new ParsedTask("", step, 0, lineNo - 1, null, null, null, null, null, false, false, "", error));
      } else {
        long endUs = dayStartUs + secondOfDay * 1_000_000L;
        sink.task(lineNo, new ParsedTask("", step, 0, lineNo - 1, null, endUs, ticks * 100, null, null, false, true, "", ""));
      }
    }
    sink.fact("", "max_running_tasks", Long.toString(maxRunning));
    sink.fact("", "times_known", Boolean.toString(dateEpochDay != null));
  }

  /** Seconds since midnight of {@code HH:MM:SS}, or null when it is not a time of day. */
  static Integer secondOfDay(String text) {
    if (text.length() != 8 || text.charAt(2) != ':' || text.charAt(5) != ':') {
      return null;
    }
    try {
      int h = Integer.parseInt(text.substring(0, 2));
      int m = Integer.parseInt(text.substring(3, 5));
      int s = Integer.parseInt(text.substring(6, 8));
      if (h > 23 || m > 59 || s > 59 || h < 0 || m < 0 || s < 0) {
        return null;
      }
      return h * 3600 + m * 60 + s;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
