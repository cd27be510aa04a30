package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.warehouse.RejectType;

/**
 * One line of a loadgen {@code tasks.csv} (core's {@link TaskCsv} contract). Times become
 * wall-clock instants through the manifest's origin: {@code start_ts} is the actual start,
 * {@code end_ts} the end; latency runs from the intended start.
 */
final class LoadgenTaskParser implements LineParser {
  private static final long serialVersionUID = 1L;

  private final long originEpochNs;

  LoadgenTaskParser(long originEpochNs) {
    this.originEpochNs = originEpochNs;
  }

  @Override
  public void parse(long lineNo, String line, ParseSink sink) {
    if (lineNo == 1) {
      if (line.equals(TaskCsv.HEADER)) {
        sink.metadata(lineNo);
      } else {
        sink.reject(lineNo, line, RejectType.HEADER, null, "the header is not loadgen's (" + TaskCsv.HEADER + ")");
      }
      return;
    }
    if (line.isBlank()) {
      sink.metadata(lineNo);
      return;
    }
    TaskRecord r;
    try {
      r = TaskCsv.parse(line);
    } catch (TaskCsv.MalformedLineException e) {
      sink.reject(lineNo, line, typeOf(e), null, e.getMessage());
      return;
    }
    long startEpochNs;
    long endEpochNs;
    try {
      startEpochNs = Math.addExact(originEpochNs, r.startNs());
      endEpochNs = Math.addExact(originEpochNs, r.endNs());
    } catch (ArithmeticException e) {
      // A wrapped-around sum would store a task in 1677 or 2262 with no trace of the damage.
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "start_ns", "start_ns/end_ns " + r.startNs() + "/" + r.endNs()
          + " after the manifest's origin_epoch_ns " + originEpochNs + " is beyond the year 2262");
      return;
    }
    sink.task(lineNo, new ParsedTask("", r.step(), r.clientId(), r.seq(),
        Math.floorDiv(startEpochNs, 1000L), Math.floorDiv(endEpochNs, 1000L),
        r.latencyNs(), r.serviceNs(), r.waitNs(), r.warmup(), r.ok(), r.sqlstate(), r.error()));
  }

  /**
   * The type of a line {@link TaskCsv} refused. TaskCsv is core's one reader of the format, shared
   * with loadgen, and says what is wrong only in its message; these are the message shapes it has.
   */
  static RejectType typeOf(TaskCsv.MalformedLineException e) {
    String m = e.getMessage() == null ? "" : e.getMessage();
    if (m.contains("out of range")) {
      return RejectType.OUT_OF_RANGE;
    }
    if (m.startsWith("times out of order") || m.contains("is longer than")) {
      return RejectType.MISMATCH;
    }
    if (m.contains("is not an integer")) {
      return RejectType.NUMBER_FORMAT;
    }
    if (m.contains("is empty")) {
      return RejectType.MISSING_VALUE;
    }
    if (m.startsWith("the line ends") || m.startsWith("more than")) {
      return RejectType.FIELD_COUNT;
    }
    return RejectType.SYNTAX;
  }
}
