package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedTask;

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
        sink.reject(lineNo, line, "the header is not loadgen's (" + TaskCsv.HEADER + ")");
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
      sink.reject(lineNo, line, e.getMessage());
      return;
    }
    long startEpochNs;
    long endEpochNs;
    try {
      startEpochNs = Math.addExact(originEpochNs, r.startNs());
      endEpochNs = Math.addExact(originEpochNs, r.endNs());
    } catch (ArithmeticException e) {
      // A wrapped-around sum would store a task in 1677 or 2262 with no trace of the damage.
      sink.reject(lineNo, line, "start_ns/end_ns " + r.startNs() + "/" + r.endNs()
          + " after the manifest's origin_epoch_ns " + originEpochNs + " is beyond the year 2262");
      return;
    }
    sink.task(lineNo, new ParsedTask("", r.step(), r.clientId(), r.seq(),
        Math.floorDiv(startEpochNs, 1000L), Math.floorDiv(endEpochNs, 1000L),
        r.latencyNs(), r.serviceNs(), r.waitNs(), r.warmup(), r.ok(), r.sqlstate(), r.error()));
  }
}
