package dev.benchlake.core.raw;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code tasks.csv} format of a loadgen run: the loadgen → ingest contract.
 *
 * <p>UTF-8, LF line ends, one header line, then one line per attempted task with the columns of
 * {@link #COLUMNS}. Integers are decimal, booleans {@code true}/{@code false}. Text fields (step,
 * sqlstate, error) are quoted RFC 4180 style when they contain a comma or a double quote; CR and
 * LF inside them are written as a space, so that one task is always one physical line and a line
 * number in a reject means what it says. The file is append-only: after a crash every complete
 * line is valid, and only the last line may be cut short. Its compact form, tasks.csv.gz, holds the
 * same text ({@link GzipTasks}); {@link #reader} reads either.
 */
public final class TaskCsv {
  public static final List<String> COLUMNS = List.of(
      "step", "client_id", "seq", "intended_start_ns", "start_ns", "end_ns", "wait_ns",
      "warmup", "ok", "sqlstate", "error");

  public static final String HEADER = String.join(",", COLUMNS);

  private TaskCsv() {}

  /** The text of a tasks file, tasks.csv or tasks.csv.gz ({@link GzipTasks#inflating}: up to where it ends). */
  public static BufferedReader reader(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    try {
      InputStream text = GzipTasks.compressed(file.getFileName().toString()) ? GzipTasks.inflating(in) : in;
      return new BufferedReader(new InputStreamReader(text, StandardCharsets.UTF_8), 1 << 16);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** Appends {@code record} as one line, with its trailing {@code \n}. */
  public static void appendLine(TaskRecord record, StringBuilder out) {
    appendText(record.step(), out);
    out.append(',').append(record.clientId())
        .append(',').append(record.seq())
        .append(',').append(record.intendedStartNs())
        .append(',').append(record.startNs())
        .append(',').append(record.endNs())
        .append(',').append(record.waitNs())
        .append(',').append(record.warmup())
        .append(',').append(record.ok())
        .append(',');
    appendText(record.sqlstate(), out);
    out.append(',');
    appendText(record.error(), out);
    out.append('\n');
  }

  /** One line without its line end. */
  public static String format(TaskRecord record) {
    StringBuilder sb = new StringBuilder(96);
    appendLine(record, sb);
    sb.setLength(sb.length() - 1);
    return sb.toString();
  }

  private static void appendText(String text, StringBuilder out) {
    boolean quote = text.indexOf(',') >= 0 || text.indexOf('"') >= 0;
    if (quote) {
      out.append('"');
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        out.append(' ');
      } else if (c == '"') {
        out.append("\"\"");
      } else {
        out.append(c);
      }
    }
    if (quote) {
      out.append('"');
    }
  }

  /**
   * Parses one line (without its line end; a trailing CR is tolerated).
   *
   * @throws MalformedLineException naming the column and the cause
   */
  public static TaskRecord parse(String line) {
    Cursor c = new Cursor(line);
    String step = c.text("step");
    int clientId = (int) c.integer("client_id", Integer.MAX_VALUE);
    long seq = c.integer("seq", Long.MAX_VALUE);
    long intended = c.integer("intended_start_ns", Long.MAX_VALUE);
    long start = c.integer("start_ns", Long.MAX_VALUE);
    long end = c.integer("end_ns", Long.MAX_VALUE);
    long wait = c.integer("wait_ns", Long.MAX_VALUE);
    boolean warmup = c.bool("warmup");
    boolean ok = c.bool("ok");
    String sqlstate = c.text("sqlstate");
    String error = c.lastText("error");
    if (step.isEmpty()) {
      throw new MalformedLineException("step is empty");
    }
    if (end < start || start < intended) {
      throw new MalformedLineException(
          "times out of order: intended_start_ns " + intended + ", start_ns " + start + ", end_ns " + end);
    }
    if (wait > start - intended) {
      throw new MalformedLineException(
          "wait_ns " + wait + " is longer than start_ns - intended_start_ns (" + (start - intended) + ")");
    }
    return new TaskRecord(step, clientId, seq, intended, start, end, wait, warmup, ok, sqlstate, error);
  }

  /** A line of {@code tasks.csv} that cannot be parsed; the message says why, for a reject. */
  public static final class MalformedLineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedLineException(String message) {
      super(message, null, false, false);
    }
  }

  /** Walks one line field by field without splitting it into an array first. */
  private static final class Cursor {
    private final String line;
    private final int end;
    private int pos;
    private int column;

    Cursor(String line) {
      this.line = line;
      this.end = line.endsWith("\r") ? line.length() - 1 : line.length();
    }

    long integer(String name, long max) {
      int start = pos;
      int stop = fieldEnd(name);
      if (stop == start) {
        throw new MalformedLineException(name + " is empty");
      }
      boolean negative = line.charAt(start) == '-';
      int i = negative ? start + 1 : start;
      if (i == stop) {
        throw new MalformedLineException(name + " is not an integer: '-'");
      }
      long value = 0;
      for (; i < stop; i++) {
        char ch = line.charAt(i);
        if (ch < '0' || ch > '9') {
          throw new MalformedLineException(name + " is not an integer: '" + line.substring(start, stop) + "'");
        }
        int digit = ch - '0';
        if (value > (Long.MAX_VALUE - digit) / 10) {
          throw new MalformedLineException(name + " is out of range: '" + line.substring(start, stop) + "'");
        }
        value = value * 10 + digit;
      }
      if (negative || value > max) {
        throw new MalformedLineException(name + " is out of range: '" + line.substring(start, stop) + "'");
      }
      advance(stop);
      return value;
    }

    boolean bool(String name) {
      int start = pos;
      int stop = fieldEnd(name);
      boolean value;
      if (line.startsWith("true", start) && stop - start == 4) {
        value = true;
      } else if (line.startsWith("false", start) && stop - start == 5) {
        value = false;
      } else {
        throw new MalformedLineException(name + " is not true or false: '" + line.substring(start, stop) + "'");
      }
      advance(stop);
      return value;
    }

    String text(String name) {
      String value = readText(name);
      if (pos > end) {
        throw new MalformedLineException("the line ends after " + name + ": " + (column) + " of "
            + COLUMNS.size() + " columns");
      }
      return value;
    }

    String lastText(String name) {
      String value = readText(name);
      if (pos <= end) {
        throw new MalformedLineException("more than " + COLUMNS.size() + " columns");
      }
      return value;
    }

    private String readText(String name) {
      if (pos > end) {
        throw new MalformedLineException("the line ends before " + name + " (" + column + " of "
            + COLUMNS.size() + " columns)");
      }
      if (pos < end && line.charAt(pos) == '"') {
        StringBuilder sb = new StringBuilder();
        int i = pos + 1;
        while (true) {
          if (i >= end) {
            throw new MalformedLineException(name + " has an unterminated quote");
          }
          char ch = line.charAt(i);
          if (ch == '"') {
            if (i + 1 < end && line.charAt(i + 1) == '"') {
              sb.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          sb.append(ch);
          i++;
        }
        if (i < end && line.charAt(i) != ',') {
          throw new MalformedLineException(name + " has text after its closing quote");
        }
        advance(i);
        return sb.toString();
      }
      int stop = line.indexOf(',', pos);
      if (stop < 0 || stop > end) {
        stop = end;
      }
      String value = line.substring(pos, stop);
      if (value.indexOf('"') >= 0) {
        throw new MalformedLineException(name + " has a stray double quote");
      }
      advance(stop);
      return value;
    }

    private int fieldEnd(String name) {
      if (pos > end) {
        throw new MalformedLineException("the line ends before " + name + " (" + column + " of "
            + COLUMNS.size() + " columns)");
      }
      int stop = line.indexOf(',', pos);
      return stop < 0 || stop > end ? end : stop;
    }

    /** Moves past the field that ends at {@code stop} and its comma; pos > end after the last. */
    private void advance(int stop) {
      pos = stop + 1;
      column++;
    }
  }
}
