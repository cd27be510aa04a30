package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.warehouse.RejectType;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/**
 * One line of a delimited file in the {@code tasks} layout of a {@link CsvMapping}: the mapping's
 * columns were resolved to indexes on the driver (from the header). {@code seq} is the line
 * number, unique within the file.
 */
final class CsvTasksParser implements LineParser {
  private static final long serialVersionUID = 1L;
  private static final DateTimeFormatter SPACE_SEPARATED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSSSSS][.SSSSSS][.SSS]", Locale.ROOT);

  /** Column indexes (0-based), -1 when the role has no column. */
  record Indexes(int run, int step, int latency, int timestamp, int ok, int error, int client, int width)
      implements java.io.Serializable {}

  private final Indexes idx;
  private final char delimiter;
  private final boolean header;
  private final String constantStep;
  private final double nsPerUnit;
  private final String timestampFormat;
  private final boolean timestampIsStart;
  private final boolean multiRun;

  CsvTasksParser(CsvMapping mapping, Indexes idx, String constantStep) {
    this.idx = idx;
    this.delimiter = mapping.delimiterChar();
    this.header = mapping.header();
    this.constantStep = constantStep;
    this.nsPerUnit = mapping.latencyNsPerUnit();
    this.timestampFormat = mapping.timestampFormat();
    this.timestampIsStart = mapping.timestampIs().equals("start");
    this.multiRun = idx.run() >= 0;
  }

  @Override
  public void parse(long lineNo, String line, ParseSink sink) {
    if (lineNo == 1 && multiRun) {
      // Each run is labelled run=<value>, with a header or without one (line 1 is then data).
      sink.fact("", "run_label", "run");
    }
    if (lineNo == 1 && header) {
      sink.metadata(lineNo);
      return;
    }
    List<String> f = CsvLine.fieldsOrVerdict(lineNo, line, delimiter, idx.width(), sink);
    if (f == null) {
      return;
    }
    String step = idx.step() >= 0 ? f.get(idx.step()).trim() : constantStep;
    if (step.isEmpty()) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, "step", "the step is empty");
      return;
    }
    String runPart = multiRun ? f.get(idx.run()).trim() : "";
    if (multiRun && runPart.isEmpty()) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, "run", "the run is empty");
      return;
    }
    Numerals.Read read = Numerals.decimal(f.get(idx.latency()));
    if (read.fault() == RejectType.NUMBER_FORMAT) {
      sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, "latency",
          "latency is not a number: '" + f.get(idx.latency()) + "'");
      return;
    }
    double latency = read.value();
    if (!(latency >= 0) || !read.ok()) {
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "latency",
          "latency must be a finite number >= 0: '" + f.get(idx.latency()) + "'");
      return;
    }
    if (latency * nsPerUnit >= Long.MAX_VALUE) {
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "latency",
          "latency is out of range: '" + f.get(idx.latency()) + "'");
      return;
    }
    long latencyNs = Math.round(latency * nsPerUnit);
    String error = idx.error() >= 0 ? f.get(idx.error()).trim() : "";
    boolean ok;
    if (idx.ok() >= 0) {
      Boolean parsed = bool(f.get(idx.ok()));
      if (parsed == null) {
        sink.reject(lineNo, line, RejectType.SYNTAX, "ok",
            "ok is not true/false, 1/0, yes/no: '" + f.get(idx.ok()) + "'");
        return;
      }
      ok = parsed;
    } else {
      ok = error.isEmpty();
    }
    int client = 0;
    if (idx.client() >= 0) {
      Numerals.IntegerRead id = Numerals.integer(f.get(idx.client()));
      if (!id.ok() || id.value() != (int) id.value()) {
        sink.reject(lineNo, line, id.ok() ? RejectType.OUT_OF_RANGE : id.fault(), "client",
            "client is not an integer" + (id.fault() == RejectType.NUMBER_FORMAT ? "" : " of 32 bits") + ": '"
            + f.get(idx.client()) + "'");
        return;
      }
      client = (int) id.value();
    }
    Long startUs = null;
    Long endUs = null;
    if (idx.timestamp() >= 0) {
      String text = f.get(idx.timestamp()).trim();
      if (timestampFormat.startsWith("epoch_")) {
        // Said as the number it is not (or the range it leaves), before it is any time.
        Numerals.IntegerRead whole = Numerals.integer(text);
        Numerals.Read epoch = Numerals.decimal(text);
        RejectType fault = timestampFormat.equals("epoch_us") ? whole.fault() : epoch.fault();
        if (fault != null) {
          sink.reject(lineNo, line, fault, "timestamp", "timestamp (" + timestampFormat + ") '" + text + "' "
              + (timestampFormat.equals("epoch_us") ? whole.why() : epoch.why()));
          return;
        }
      }
      Long ts = timestampUs(text);
      if (ts == null && timestampFormat.startsWith("epoch_")) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "timestamp",
            "timestamp is out of range: '" + f.get(idx.timestamp()) + "'");
        return;
      }
      if (ts == null) {
        sink.reject(lineNo, line, RejectType.SYNTAX, "timestamp",
            "timestamp is not " + timestampFormat + ": '" + f.get(idx.timestamp()) + "'");
        return;
      }
      try {
        startUs = timestampIsStart ? ts : Math.subtractExact(ts, latencyNs / 1000);
        endUs = timestampIsStart ? Math.addExact(ts, latencyNs / 1000) : ts;
      } catch (ArithmeticException e) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "timestamp",
            "timestamp is out of range: '" + f.get(idx.timestamp()) + "'");
        return;
      }
    }
    sink.task(lineNo, new ParsedTask(runPart, step, client, lineNo, startUs, endUs, latencyNs,
        null, null, false, ok, "", error));
  }

  private Long timestampUs(String text) {
    try {
      return switch (timestampFormat) {
        case "epoch_s" -> micros(Numerals.decimal(text).value() * 1e6);
        case "epoch_ms" -> micros(Numerals.decimal(text).value() * 1e3);
        case "epoch_us" -> epochUs(text);
        default -> iso(text);
      };
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  /** Whole microseconds, or null when they are not a whole number or do not fit a long. */
  private static Long epochUs(String text) {
    Numerals.IntegerRead us = Numerals.integer(text);
    return us.ok() ? us.value() : null;
  }

  /** Rounded microseconds, or null when they do not fit a long (Math.round would saturate). */
  private static Long micros(double us) {
    return Math.abs(us) < Long.MAX_VALUE ? Math.round(us) : null;
  }

  private static long iso(String text) {
    Instant instant;
    if (text.endsWith("Z") || text.matches(".*[+-]\\d{2}:?\\d{2}$")) {
      instant = java.time.OffsetDateTime.parse(text.replace(' ', 'T')).toInstant();
    } else if (text.indexOf('T') > 0) {
      instant = LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    } else {
      instant = LocalDateTime.parse(text, SPACE_SEPARATED).toInstant(ZoneOffset.UTC);
    }
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }

  static Boolean bool(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true", "t", "1", "yes", "y", "ok", "success" -> Boolean.TRUE;
      case "false", "f", "0", "no", "n", "error", "failed", "failure" -> Boolean.FALSE;
      default -> null;
    };
  }
}
