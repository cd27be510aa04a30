package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.FiniteMetrics;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.warehouse.RejectType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text pgbench prints: progress lines ({@code -P}), then the summary. Both generations:
 *
 * <ul>
 *   <li>PostgreSQL 13 and older: {@code latency average: 30.892 ms}, {@code tps = … (including
 *       connections establishing)} and {@code (excluding connections establishing)};
 *   <li>PostgreSQL 14 and newer: {@code latency average = 0.992 ms}, {@code initial connection
 *       time = 2.737 ms}, {@code tps = … (without initial connection time)}, failures and retries.
 * </ul>
 *
 * Metrics (whole run unless a progress line): {@code tps} is the throughput without connection
 * set-up (excluding / without initial connection time), comparable across versions;
 * {@code tps_including_connections} is the older second figure. Latencies are in ms. A progress
 * line {@code progress: T s, …} covers the interval from the previous progress time (or 0) to T.
 * The step is {@code --step}, else the transaction type (pgbench's builtin names: tpcb-like,
 * simple-update, select-only; else the script file name). A second summary in one file is
 * rejected: one file is one run.
 */
final class PgbenchSummaryParser implements DocumentParser {
  private static final long serialVersionUID = 1L;

  private static final Pattern NUMBER_AND_UNIT = Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*(ms|s)?");
  private static final Pattern PROGRESS = Pattern.compile("progress: (\\d+(?:\\.\\d+)?) s, (.*)");
  private static final Pattern PROGRESS_ITEM = Pattern.compile(
      "(\\d+(?:\\.\\d+)?) tps|lat (\\d+(?:\\.\\d+)?) ms stddev (\\d+(?:\\.\\d+)?|NaN)|lat (\\d+(?:\\.\\d+)?) ms"
          + "|(\\d+) failed|lag (\\d+(?:\\.\\d+)?) ms|(\\d+) skipped");
  private static final Pattern BANNER = Pattern.compile("pgbench \\((\\S+)(?: \\([^)]*\\))?(?:, server (\\S+))?\\)");
  private static final Pattern KEY_VALUE = Pattern.compile("([a-z][a-z ]*[a-z])\\s*[:=]\\s*(.*)");
  private static final Pattern TPS = Pattern.compile("tps = (\\d+(?:\\.\\d+)?) \\((including|excluding|without)[^)]*\\)");
  private static final Pattern COUNT_PERCENT = Pattern.compile("(\\d+)(?:/(\\d+))?(?: \\((\\d+(?:\\.\\d+)?)%\\))?");
  private static final Pattern ABOVE_LIMIT = Pattern.compile(
      "number of transactions above the (\\d+(?:\\.\\d+)?) ms latency limit: (\\d+)/(\\d+) \\((\\d+(?:\\.\\d+)?)%\\)");
  private static final Pattern LAG = Pattern.compile("rate limit schedule lag: avg (\\d+(?:\\.\\d+)?) \\(max (\\d+(?:\\.\\d+)?)\\) ms");
  private static final Pattern STATEMENT = Pattern.compile("\\s+(\\d+(?:\\.\\d+)?)(?:\\s+(\\d+))?\\s+(\\S.*)");
  private static final Map<String, String> BUILTIN_STEPS = Map.of(
      "TPC-B (sort of)", "tpcb-like", "Update only pgbench_accounts", "simple-update", "SELECT only", "select-only");
  /** Lines pgbench prints around the summary that carry nothing to store. */
  private static final List<Pattern> NOISE = List.of(
      Pattern.compile("starting vacuum\\.\\.\\.end\\."),
      Pattern.compile("Password( for user \\S+)?:\\s*"),
      Pattern.compile("Scale option ignored, using count from pgbench_branches table \\(\\d+\\)"),
      Pattern.compile("Scale option ignored, using pgbench_branches table count = \\d+"),
      Pattern.compile("statement latencies in milliseconds.*:"),
      Pattern.compile("SQL script \\d+: .*"),
      Pattern.compile(" - weight: .*"),
      Pattern.compile(" - \\d+ transactions .*"));

  private final String stepOverride;

  PgbenchSummaryParser(String stepOverride) {
    this.stepOverride = stepOverride;
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink out) {
    FiniteMetrics sink = new FiniteMetrics(out);
    String step = stepOverride != null ? stepOverride : stepFromHeader(lines);
    double previousProgressS = 0;
    boolean afterTps = false;
    boolean done = false;
    int statements = 0;
    for (int i = 0; i < lines.size(); i++) {
      long lineNo = i + 1;
      String line = lines.get(i);
      try {
        String t = line.trim();
        if (!done && afterTps) {
          // After the final tps line pgbench prints only per-script and per-statement details (-r).
          Matcher s = STATEMENT.matcher(line);
          if (t.isEmpty() || NOISE.stream().anyMatch(p -> p.matcher(line).matches())) {
            sink.metadata(lineNo);
          } else if (s.matches()) {
            statements++;
            sink.fact("", "statement." + statements, s.group(1) + " ms" + (s.group(2) == null ? "" : ", " + s.group(2)
                + " failures") + ": " + s.group(3));
            sink.metadata(lineNo);
          } else {
            done = true;
          }
          if (!done) {
            continue;
          }
        }
        if (done) {
          sink.reject(lineNo, line, RejectType.DUPLICATE, null,
              "after the end of the first pgbench run's summary; one file holds one run");
          continue;
        }
        if (t.isEmpty() || NOISE.stream().anyMatch(p -> p.matcher(line).matches())) {
          sink.metadata(lineNo);
          continue;
        }
        Matcher m;
        if ((m = BANNER.matcher(t)).matches()) {
          sink.fact("", "pgbench_version", m.group(1));
          if (m.group(2) != null) {
            sink.fact("", "db_version", m.group(2));
          }
          sink.metadata(lineNo);
        } else if ((m = PROGRESS.matcher(t)).matches()) {
          double at = Double.parseDouble(m.group(1));
          if (Double.isInfinite(at)) {
            sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "progress", "the progress time is out of range");
          } else if (progress(lineNo, line, step, previousProgressS, at, m.group(2), sink)) {
            previousProgressS = at;
          }
        } else if ((m = TPS.matcher(t)).matches()) {
          boolean including = m.group(2).equals("including");
          sink.metric(lineNo, ParsedMetric.whole(step, including ? "tps_including_connections" : "tps",
              Double.parseDouble(m.group(1)), "1/s"));
          afterTps = !including;
        } else if ((m = ABOVE_LIMIT.matcher(t)).matches()) {
          sink.fact("", "latency_limit_ms", m.group(1));
          sink.metric(lineNo, ParsedMetric.whole(step, "above_latency_limit", Double.parseDouble(m.group(2)), "count"));
        } else if ((m = LAG.matcher(t)).matches()) {
          sink.metric(lineNo, ParsedMetric.whole(step, "lag_avg", Double.parseDouble(m.group(1)), "ms"));
          sink.metric(lineNo, ParsedMetric.whole(step, "lag_max", Double.parseDouble(m.group(2)), "ms"));
        } else if ((m = KEY_VALUE.matcher(t)).matches()) {
          keyValue(lineNo, line, step, m.group(1), m.group(2).trim(), sink);
        } else if (t.startsWith("pgbench: ") || t.matches("client \\d+ .*")) {
          sink.fact("", "message." + lineNo, t);
          sink.metadata(lineNo);
        } else {
          sink.reject(lineNo, line, RejectType.UNKNOWN_LINE, null, "not a line of pgbench's output");
        }
      } finally {
        sink.endLine(lineNo, line);
      }
    }
  }

  private boolean progress(long lineNo, String line, String step, double from, double to, String items, ParseSink sink) {
    double interval = to - from;
    boolean any = false;
    // Item by item, anchored: searching the whole line for number patterns takes quadratic time
    // on a long run of digits (a 10 MB line took hours).
    for (String part : items.split(",")) {
      Matcher item = PROGRESS_ITEM.matcher(part.trim());
      if (!item.matches()) {
        continue;
      }
      if (!any && item.group(1) == null) {
        break;
      }
      any = true;
      if (item.group(1) != null) {
        emit(sink, lineNo, step, from, interval, "tps", item.group(1), "1/s");
      } else if (item.group(2) != null) {
        emit(sink, lineNo, step, from, interval, "latency_avg", item.group(2), "ms");
        if (!item.group(3).equals("NaN")) {
          emit(sink, lineNo, step, from, interval, "latency_stddev", item.group(3), "ms");
        }
      } else if (item.group(4) != null) {
        emit(sink, lineNo, step, from, interval, "latency_avg", item.group(4), "ms");
      } else if (item.group(5) != null) {
        emit(sink, lineNo, step, from, interval, "failed", item.group(5), "count");
      } else if (item.group(6) != null) {
        emit(sink, lineNo, step, from, interval, "lag_avg", item.group(6), "ms");
      } else if (item.group(7) != null) {
        emit(sink, lineNo, step, from, interval, "skipped", item.group(7), "count");
      }
    }
    if (!any) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, "tps", "a progress line without a tps figure");
      return false;
    }
    return true;
  }

  private static void emit(ParseSink sink, long lineNo, String step, double from, double interval, String metric,
      String value, String unit) {
    sink.metric(lineNo, new ParsedMetric("", step, from, interval, metric, Double.parseDouble(value), unit, null));
  }

  /** Gives the line's verdict; returns whether it was understood. */
  private boolean keyValue(long lineNo, String line, String step, String key, String value, ParseSink sink) {
    switch (key) {
      case "transaction type", "scaling factor", "query mode", "number of threads", "duration",
          "maximum number of tries", "number of transactions per client", "latency limit",
          "maximum number of transactions" -> {
        sink.fact("", key.replace(' ', '_'), value);
        sink.metadata(lineNo);
        return true;
      }
      case "number of clients" -> {
        sink.fact("", "clients", value);
        sink.metadata(lineNo);
        return true;
      }
      case "number of transactions actually processed" -> {
        return count(lineNo, line, step, "transactions", value, sink);
      }
      case "number of failed transactions" -> {
        return count(lineNo, line, step, "failed", value, sink);
      }
      case "number of serialization failures" -> {
        return count(lineNo, line, step, "failures_serialization", value, sink);
      }
      case "number of deadlock failures" -> {
        return count(lineNo, line, step, "failures_deadlock", value, sink);
      }
      case "number of transactions retried" -> {
        return count(lineNo, line, step, "retried", value, sink);
      }
      case "total number of retries" -> {
        return count(lineNo, line, step, "retries", value, sink);
      }
      case "number of transactions skipped" -> {
        return count(lineNo, line, step, "skipped", value, sink);
      }
      case "latency average" -> {
        return milliseconds(lineNo, line, step, "latency_avg", value.replace("(including failures)", "").trim(), sink);
      }
      case "latency stddev" -> {
        return milliseconds(lineNo, line, step, "latency_stddev", value, sink);
      }
      case "initial connection time" -> {
        return milliseconds(lineNo, line, step, "initial_connection_time", value, sink);
      }
      default -> {
        sink.reject(lineNo, line, RejectType.UNKNOWN_LINE, key,
            "not a line of pgbench's output (unknown item '" + key + "')");
        return false;
      }
    }
  }

  private static boolean count(long lineNo, String line, String step, String metric, String value, ParseSink sink) {
    Matcher m = COUNT_PERCENT.matcher(value);
    if (!m.matches()) {
      sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, metric, metric + ": not a count: '" + value + "'");
      return false;
    }
    sink.metric(lineNo, ParsedMetric.whole(step, metric, Double.parseDouble(m.group(1)), "count"));
    return true;
  }

  private static boolean milliseconds(long lineNo, String line, String step, String metric, String value, ParseSink sink) {
    Matcher m = NUMBER_AND_UNIT.matcher(value);
    if (!m.matches() || !"ms".equals(m.group(2))) {
      sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, metric, metric + ": not a time in ms: '" + value + "'");
      return false;
    }
    sink.metric(lineNo, ParsedMetric.whole(step, metric, Double.parseDouble(m.group(1)), "ms"));
    return true;
  }

  /** The step named by the file's {@code transaction type}, or {@code pgbench}. */
  static String stepFromHeader(List<String> lines) {
    for (String line : lines) {
      String t = line.trim();
      if (t.startsWith("transaction type:")) {
        String type = t.substring("transaction type:".length()).trim();
        if (type.startsWith("<builtin: ") && type.endsWith(">")) {
          type = type.substring("<builtin: ".length(), type.length() - 1);
        }
        String builtin = BUILTIN_STEPS.get(type);
        if (builtin != null) {
          return builtin;
        }
        return type.isEmpty() ? PgbenchLogFormat.DEFAULT_STEP : type.toLowerCase(Locale.ROOT).replace(' ', '-');
      }
    }
    return PgbenchLogFormat.DEFAULT_STEP;
  }
}
