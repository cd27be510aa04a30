package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.FiniteMetrics;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.warehouse.RejectType;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sysbench 1.0's text output: the option banner, the {@code [ Ns ]} interval lines
 * ({@code --report-interval}), the latency histogram ({@code --histogram}) and the final report;
 * also sysbench 1.1's {@code Throughput:} section ({@code events/s (eps):} as {@code events_per_s},
 * {@code time elapsed:} as {@code total_time}, as 1.0's {@code total time:}) and fractional
 * interval times ({@code [ 55.0s ]}), which mytools trees made with 1.1 carry.
 *
 * <p>Metrics use the names and units of the pgbench formats where they mean the same
 * ({@code tps}, {@code latency_avg} in ms…). An interval line {@code [ T s ]} covers the interval
 * from the previous interval's T (or 0) to T. A histogram row becomes metric
 * {@code latency_histogram} (unit {@code count}) with {@code bucket} = the bucket's latency in ms.
 * Percentiles are named by their rank: {@code latency_p95}.
 */
final class SysbenchParser implements DocumentParser {
  private static final long serialVersionUID = 1L;

  private static final String NUM = "(\\d+(?:\\.\\d+)?)";
  private static final Pattern BANNER = Pattern.compile("sysbench (\\d+\\.\\d+\\.\\d+)(?: \\((.*)\\))?");
  private static final Pattern INTERVAL = Pattern.compile("\\[ ?(\\d+(?:\\.\\d+)?)s \\] (.*)");
  private static final Pattern INTERVAL_ITEM = Pattern.compile(
      "thds: " + NUM + "|tps: " + NUM + "|qps: " + NUM + " \\(r/w/o: " + NUM + "/" + NUM + "/" + NUM + "\\)"
          + "|lat \\(ms,(\\d+)%\\): " + NUM + "|err/s:? " + NUM + "|reconn/s: " + NUM
          + "|queue length: " + NUM + "|concurrency: " + NUM);
  private static final Pattern HISTOGRAM_ROW = Pattern.compile("\\s*" + NUM + " \\|\\**\\s+(\\d+)");
  private static final Pattern COUNT_PER_SEC = Pattern.compile("(transactions|queries|ignored errors|reconnects):\\s+(\\d+)\\s+\\(" + NUM + " per sec\\.\\)");
  private static final Pattern QUERY_KIND = Pattern.compile("(read|write|other|total):\\s+(\\d+)");
  /** 1.0's "total time:", 1.1's "time elapsed:" (its Throughput section): the run's seconds. */
  private static final Pattern TOTAL_TIME = Pattern.compile("(?:total time|time elapsed):\\s+" + NUM + "s");
  private static final Pattern EVENTS_PER_S = Pattern.compile("events/s \\(eps\\):\\s+" + NUM);
  private static final Pattern EVENTS = Pattern.compile("total number of events:\\s+(\\d+)");
  private static final Pattern LATENCY = Pattern.compile("(min|avg|max|sum|(\\d+)th percentile):\\s+" + NUM);
  private static final Pattern FAIRNESS = Pattern.compile("(events|execution time) \\(avg/stddev\\):\\s+" + NUM + "/" + NUM);
  private static final Pattern OPTION = Pattern.compile("(Number of threads|Target transaction rate|Report intermediate results every|Initializing random number generator from seed|Report every|Extra file open flags|Random number generator seed):?\\s*(.*)");
  private static final List<Pattern> HEADINGS = List.of(
      Pattern.compile("Running the test with following options:"),
      Pattern.compile("Initializing random number generator from current time"),
      Pattern.compile("Initializing worker threads\\.\\.\\."),
      Pattern.compile("Threads started!"),
      Pattern.compile("Latency histogram \\(values are in milliseconds\\)"),
      Pattern.compile("value\\s+-+ distribution -+ count"),
      Pattern.compile("SQL statistics:"),
      Pattern.compile("queries performed:"),
      Pattern.compile("General statistics:"),
      Pattern.compile("Throughput:"),
      Pattern.compile("Latency \\(ms\\):"),
      Pattern.compile("Threads fairness:"));

  private final String step;

  SysbenchParser(String step) {
    this.step = step;
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink out) {
    FiniteMetrics sink = new FiniteMetrics(out);
    double previousS = 0;
    for (int i = 0; i < lines.size(); i++) {
      long lineNo = i + 1;
      String line = lines.get(i);
      try {
        String t = line.trim();
        Matcher m;
        if (t.isEmpty() || HEADINGS.stream().anyMatch(p -> p.matcher(t).matches())) {
          sink.metadata(lineNo);
        } else if ((m = BANNER.matcher(t)).matches()) {
          sink.fact("", "sysbench_version", m.group(1));
          sink.metadata(lineNo);
        } else if ((m = INTERVAL.matcher(t)).matches()) {
          double at = Double.parseDouble(m.group(1));
          if (Double.isInfinite(at)) {
            sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "time", "the interval's time is out of range");
          } else if (interval(lineNo, line, previousS, at, m.group(2), sink)) {
            previousS = at;
          }
        } else if ((m = HISTOGRAM_ROW.matcher(line)).matches()) {
          sink.metric(lineNo, new ParsedMetric("", step, null, null, "latency_histogram", Double.parseDouble(m.group(2)),
              "count", Double.parseDouble(m.group(1))));
        } else if ((m = COUNT_PER_SEC.matcher(t)).matches()) {
          String name = switch (m.group(1)) {
            case "transactions" -> "transactions";
            case "queries" -> "queries";
            case "ignored errors" -> "errors_ignored";
            default -> "reconnects";
          };
          String rate = switch (m.group(1)) {
            case "transactions" -> "tps";
            case "queries" -> "qps";
            default -> name + "_per_s";
          };
          whole(sink, lineNo, name, m.group(2), "count");
          whole(sink, lineNo, rate, m.group(3), "1/s");
        } else if ((m = QUERY_KIND.matcher(t)).matches()) {
          whole(sink, lineNo, "queries_" + m.group(1), m.group(2), "count");
        } else if ((m = TOTAL_TIME.matcher(t)).matches()) {
          whole(sink, lineNo, "total_time", m.group(1), "s");
        } else if ((m = EVENTS_PER_S.matcher(t)).matches()) {
          whole(sink, lineNo, "events_per_s", m.group(1), "1/s");
        } else if ((m = EVENTS.matcher(t)).matches()) {
          whole(sink, lineNo, "events", m.group(1), "count");
        } else if ((m = LATENCY.matcher(t)).matches()) {
          String name = m.group(2) != null ? "latency_p" + m.group(2) : "latency_" + m.group(1);
          whole(sink, lineNo, name, m.group(3), "ms");
        } else if ((m = FAIRNESS.matcher(t)).matches()) {
          String base = m.group(1).equals("events") ? "fairness_events" : "fairness_execution_time";
          String unit = m.group(1).equals("events") ? "count" : "s";
          whole(sink, lineNo, base + "_avg", m.group(2), unit);
          whole(sink, lineNo, base + "_stddev", m.group(3), unit);
        } else if ((m = OPTION.matcher(t)).matches()) {
          String key = m.group(1).toLowerCase(java.util.Locale.ROOT).replace(' ', '_');
          sink.fact("", key, m.group(2).trim());
          if (m.group(1).equals("Number of threads")) {
            sink.fact("", "clients", m.group(2).trim());
          }
          sink.metadata(lineNo);
        } else if (t.startsWith("FATAL:") || t.startsWith("WARNING:") || t.startsWith("ALERT:")) {
          sink.fact("", "message." + lineNo, t);
          sink.metadata(lineNo);
        } else {
          sink.reject(lineNo, line, RejectType.UNKNOWN_LINE, null, "not a line of sysbench 1.0's output");
        }
      } finally {
        sink.endLine(lineNo, line);
      }
    }
  }

  private boolean interval(long lineNo, String line, double from, double to, String items, ParseSink sink) {
    Matcher item = INTERVAL_ITEM.matcher(items);
    double length = to - from;
    int found = 0;
    while (item.find()) {
      found++;
      if (item.group(1) != null) {
        emit(sink, lineNo, from, length, "threads", item.group(1), "count");
      } else if (item.group(2) != null) {
        emit(sink, lineNo, from, length, "tps", item.group(2), "1/s");
      } else if (item.group(3) != null) {
        emit(sink, lineNo, from, length, "qps", item.group(3), "1/s");
        emit(sink, lineNo, from, length, "qps_read", item.group(4), "1/s");
        emit(sink, lineNo, from, length, "qps_write", item.group(5), "1/s");
        emit(sink, lineNo, from, length, "qps_other", item.group(6), "1/s");
      } else if (item.group(7) != null) {
        emit(sink, lineNo, from, length, "latency_p" + item.group(7), item.group(8), "ms");
      } else if (item.group(9) != null) {
        emit(sink, lineNo, from, length, "errors_per_s", item.group(9), "1/s");
      } else if (item.group(10) != null) {
        emit(sink, lineNo, from, length, "reconnects_per_s", item.group(10), "1/s");
      } else if (item.group(11) != null) {
        emit(sink, lineNo, from, length, "queue_length", item.group(11), "count");
      } else if (item.group(12) != null) {
        emit(sink, lineNo, from, length, "concurrency", item.group(12), "count");
      }
    }
    if (found == 0) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, null, "an interval line without figures");
      return false;
    }
    return true;
  }

  private void emit(ParseSink sink, long lineNo, double from, double length, String metric, String value, String unit) {
    sink.metric(lineNo, new ParsedMetric("", step, from, length, metric, Double.parseDouble(value), unit, null));
  }

  private void whole(ParseSink sink, long lineNo, String metric, String value, String unit) {
    sink.metric(lineNo, ParsedMetric.whole(step, metric, Double.parseDouble(value), unit));
  }
}
