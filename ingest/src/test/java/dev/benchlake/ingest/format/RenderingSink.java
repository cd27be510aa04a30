package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.warehouse.RejectType;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.ingest.parse.ParsedTask;
import java.util.Locale;

/** Renders every verdict as one stable line of text, for golden files. */
final class RenderingSink implements ParseSink {
  private final StringBuilder out = new StringBuilder();

  @Override
  public void task(long lineNo, ParsedTask t) {
    out.append('L').append(lineNo).append(" task").append(t.runPart().isEmpty() ? "" : " run=" + t.runPart())
        .append(" step=").append(t.step()).append(" client=").append(t.clientId()).append(" seq=").append(t.seq())
        .append(" start_us=").append(n(t.startEpochUs())).append(" end_us=").append(n(t.endEpochUs()))
        .append(" latency_ns=").append(n(t.latencyNs())).append(" service_ns=").append(n(t.serviceNs()))
        .append(" wait_ns=").append(n(t.waitNs())).append(" warmup=").append(t.warmup()).append(" ok=").append(t.ok())
        .append(" sqlstate=").append(t.sqlstate()).append(" error=").append(t.error()).append('\n');
  }

  @Override
  public void metric(long lineNo, ParsedMetric m) {
    out.append('L').append(lineNo).append(" metric").append(m.runPart().isEmpty() ? "" : " run=" + m.runPart())
        .append(" step=").append(m.step())
        .append(" interval=").append(m.intervalStartS() == null ? "run" : d(m.intervalStartS()) + "+" + d(m.intervalS()))
        .append(' ').append(m.metric()).append('=').append(d(m.value())).append(' ').append(m.unit())
        .append(m.bucket() == null ? "" : " bucket=" + d(m.bucket())).append('\n');
  }

  @Override
  public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
    out.append('L').append(lineNo).append(" reject '").append(rawLine).append("': ").append(reason)
        .append(" [").append(type.sqlName()).append(column == null ? "" : " " + column).append("]\n");
  }

  @Override
  public void metadata(long lineNo) {
    out.append('L').append(lineNo).append(" metadata\n");
  }

  @Override
  public void fact(String runPart, String key, String value) {
    out.append("fact ").append(runPart.isEmpty() ? "" : runPart + ":").append(key).append('=').append(value).append('\n');
  }

  String text() {
    return out.toString();
  }

  private static String n(Long value) {
    return value == null ? "-" : value.toString();
  }

  private static String d(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%s", value);
  }
}
