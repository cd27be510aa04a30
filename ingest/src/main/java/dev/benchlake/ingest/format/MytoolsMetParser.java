package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.MachineMetric;
import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.warehouse.RejectType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A mytools {@code sb.met.<testType>.range<R>.pk<N>.dop<T>}: what run.sh's {@code an.sh} writes
 * after a step, its whole-machine figures ({@link MachineMetric}) as whole-step rows of the step of
 * the {@code sb.o} beside it. Its layout, tab-separated:
 *
 * <pre>
 * iostat, vmstat normalized by operation rate
 * samp  r/s  rMB/s  w/s  wMB/s  r/o  rKB/o  wKB/o  o/s
 * 305   0.0  0.0    0.0  0.0    0.000 0.000 0.000  149562.68
 *
 * samp  cs/s    cpu/s  cs/o   cpu/o
 * 319   567738  67.1   3.796  0.000449
 * </pre>
 *
 * A figures line is read by the column header above it, so an older an.sh's other order reads
 * alike. It is accepted whole or rejected whole: a field count other than its header's, a field that
 * is no finite number, a negative one (an average of counters never is), a second figures line under
 * one header or a figure already given. {@code samp} (the samples averaged) and {@code o/s} (the
 * step's queries per second, the sb.o's) are checked, not stored.
 */
final class MytoolsMetParser implements DocumentParser {
  private static final long serialVersionUID = 1L;
  static final String TITLE = "iostat, vmstat normalized by operation rate";
  /**
   * an.sh's title until December 2020: totals over the step divided by its operations, in other
   * columns ({@code rGB}, {@code Mcpu/o}, {@code wa.sec}); not read, and said so on every line.
   */
  static final String TOTALS_TITLE = "iostat, vmstat totals";
  private static final String SAMPLES = "samp";
  private static final String OPS_PER_S = "o/s";
  /** What an.sh prints, and nothing else, when it cannot tell the iostat capture's layout. */
  private static final String CANNOT_PARSE = "Cannot parse:";

  private final String step;
  private final int cpus;

  /**
   * @param step the step of the sb.o beside it
   * @param cpus the host's CPUs (the sb.o's {@code <n> CPUs}), or 0 when not known: then no
   *     {@code machine_cpu_us_per_op} row
   */
  MytoolsMetParser(String step, int cpus) {
    this.step = step;
    this.cpus = cpus;
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    String[] header = null;
    boolean figuresRead = false;
    boolean titleSeen = false;
    boolean first = true;
    boolean totals = false;
    Set<String> given = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      long lineNo = i + 1;
      String line = lines.get(i);
      String t = line.strip();
      if (t.isEmpty()) {
        sink.metadata(lineNo);
        continue;
      }
      boolean wasFirst = first;
      first = false;
      String[] fields = t.split("\\s+");
      totals |= wasFirst && t.equals(TOTALS_TITLE);
      if (totals) {
        sink.reject(lineNo, line, wasFirst ? RejectType.HEADER : RejectType.UNKNOWN_LINE, null, "an.sh's totals of before"
            + " December 2020 ('" + TOTALS_TITLE + "'), whose columns differ: not read");
      } else if (t.equals(TITLE)) {
        if (titleSeen) {
          sink.reject(lineNo, line, RejectType.DUPLICATE, null, "a second title: an.sh writes one summary a file");
        } else {
          titleSeen = true;
          sink.metadata(lineNo);
        }
      } else if (fields[0].equals(SAMPLES)) {
        String unknown = unknownColumn(fields);
        if (unknown != null) {
          header = null;
          sink.reject(lineNo, line, RejectType.HEADER, unknown, "column " + RawLines.quote(unknown, 40)
              + " is not one of an.sh's (samp, o/s and " + columns() + ")");
        } else {
          header = fields;
          figuresRead = false;
          sink.metadata(lineNo);
        }
      } else if (t.startsWith(CANNOT_PARSE)) {
        sink.reject(lineNo, line, RejectType.UNKNOWN_LINE, null, "an.sh could not read the step's iostat capture,"
            + " so it wrote no figures");
      } else if (wasFirst) {
        sink.reject(lineNo, line, RejectType.HEADER, null, "not an.sh's resource summary: its first line is not '"
            + TITLE + "'");
      } else if (header == null) {
        sink.reject(lineNo, line, RejectType.UNKNOWN_LINE, null, "not under a column header of an.sh's ('samp …')");
      } else if (figuresRead) {
        sink.reject(lineNo, line, RejectType.DUPLICATE, null, "a second figures line under one header: an.sh writes"
            + " one");
      } else {
        figuresRead = figures(lineNo, line, fields, header, given, sink);
      }
    }
  }

  /** The line's rows, or its reject; whether it was accepted. */
  private boolean figures(long lineNo, String line, String[] fields, String[] header, Set<String> given,
      ParseSink sink) {
    if (fields.length != header.length) {
      sink.reject(lineNo, line, RejectType.FIELD_COUNT, null, fields.length + " fields, but its header has "
          + header.length + " (" + String.join(" ", header) + ")");
      return false;
    }
    List<ParsedMetric> rows = new ArrayList<>();
    for (int k = 0; k < fields.length; k++) {
      Numerals.Read read = Numerals.decimal(fields[k]);
      if (!read.ok()) {
        sink.reject(lineNo, line, read.fault(), header[k], header[k] + " " + RawLines.quote(fields[k], 40) + " "
            + read.why());
        return false;
      }
      if (read.value() < 0) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, header[k], header[k] + " " + RawLines.quote(fields[k], 40)
            + " is negative: an average of counters never is");
        return false;
      }
      MachineMetric m = MachineMetric.ofColumn(header[k]).orElse(null);
      if (m == null) {
        continue;
      }
      rows.add(ParsedMetric.whole(step, m.metric(), read.value(), m.unit()));
      if (m == MachineMetric.CPU_PCT_S_PER_OP && cpus > 0) {
        double us = MachineMetric.cpuUsPerOp(new BigDecimal(fields[k].strip()), cpus);
        if (!Double.isFinite(us)) {
          sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, header[k], header[k] + " " + RawLines.quote(fields[k], 40)
              + " × " + cpus + " CPUs is out of range (beyond what a double holds)");
          return false;
        }
        rows.add(ParsedMetric.whole(step, MachineMetric.CPU_US_PER_OP.metric(), us, MachineMetric.CPU_US_PER_OP.unit()));
      }
    }
    for (ParsedMetric row : rows) {
      if (given.contains(row.metric())) {
        sink.reject(lineNo, line, RejectType.DUPLICATE, null, row.metric() + " is given twice (an.sh writes each"
            + " column once)");
        return false;
      }
    }
    rows.forEach(row -> {
      given.add(row.metric());
      sink.metric(lineNo, row);
    });
    return true;
  }

  /** The first column of a header that an.sh never writes, or null. */
  private static String unknownColumn(String[] header) {
    for (int k = 1; k < header.length; k++) {
      if (!header[k].equals(OPS_PER_S) && MachineMetric.ofColumn(header[k]).isEmpty()) {
        return header[k];
      }
    }
    return null;
  }

  private static String columns() {
    List<String> names = new ArrayList<>();
    for (MachineMetric m : MachineMetric.values()) {
      if (m.column() != null) {
        names.add(m.column());
      }
    }
    return String.join(", ", names);
  }
}
