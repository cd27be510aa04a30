package dev.benchlake.ingest.parse;

import dev.benchlake.warehouse.RejectType;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ParseSink} for parsers whose number patterns accept any run of digits (sysbench and
 * pgbench text): it holds back the metrics of the current line until {@link #endLine}, then
 * either passes them all on or, when one of them is not a finite number (a 400-digit "number"
 * parses as infinity), rejects the whole line. A line is never half metrics and half reject, and
 * no infinity reaches {@code step_metrics}.
 */
public final class FiniteMetrics implements ParseSink {
  private final ParseSink sink;
  private final List<ParsedMetric> pending = new ArrayList<>();

  public FiniteMetrics(ParseSink sink) {
    this.sink = sink;
  }

  @Override
  public void task(long lineNo, ParsedTask task) {
    sink.task(lineNo, task);
  }

  @Override
  public void metric(long lineNo, ParsedMetric metric) {
    pending.add(metric);
  }

  @Override
  public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
    sink.reject(lineNo, rawLine, type, column, reason);
  }

  @Override
  public void metadata(long lineNo) {
    sink.metadata(lineNo);
  }

  @Override
  public void fact(String runPart, String key, String value) {
    sink.fact(runPart, key, value);
  }

  /** Gives line {@code lineNo} the metrics it produced, or a reject if one is not finite. */
  public void endLine(long lineNo, String line) {
    if (pending.isEmpty()) {
      return;
    }
    ParsedMetric bad = pending.stream().filter(m -> !finite(m)).findFirst().orElse(null);
    if (bad != null) {
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, bad.metric(),
          bad.metric() + " is out of range (not a finite number)");
    } else {
      pending.forEach(m -> sink.metric(lineNo, m));
    }
    pending.clear();
  }

  private static boolean finite(ParsedMetric m) {
    return Double.isFinite(m.value()) && (m.bucket() == null || Double.isFinite(m.bucket()))
        && (m.intervalStartS() == null || Double.isFinite(m.intervalStartS()))
        && (m.intervalS() == null || Double.isFinite(m.intervalS()));
  }
}
