package dev.benchlake.loadgen.db;

import java.sql.SQLException;
import java.util.Locale;

/** How a failed task is described in tasks.csv: its SQLSTATE and a one-line message. */
public final class SqlErrors {
  /** Longest error message kept per task: enough to tell causes apart, short enough for millions of lines. */
  static final int MAX_MESSAGE = 300;

  private SqlErrors() {}

  /** The SQLSTATE of {@code t} or of the first cause that has one, or empty. */
  public static String sqlState(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SQLException sql && sql.getSQLState() != null && !sql.getSQLState().isBlank()) {
        return sql.getSQLState();
      }
    }
    return "";
  }

  /**
   * {@code t}'s message on one line, shortened; the exception type when it has no message. A
   * root cause that says more (pgjdbc's "The connection attempt failed." hides "Connection
   * refused") is appended in parentheses.
   */
  public static String message(Throwable t) {
    String message = t.getMessage();
    if (message == null || message.isBlank()) {
      message = t.getClass().getSimpleName();
    }
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String rootMessage = root.getMessage();
    if (root != t && rootMessage != null && !rootMessage.isBlank() && !message.contains(rootMessage)) {
      message = message + " (" + rootMessage + ")";
    }
    return oneLine(message);
  }

  /** Whitespace runs (line breaks included) become one space; at most {@value #MAX_MESSAGE} characters. */
  public static String oneLine(String message) {
    String flat = message == null ? "" : message.replaceAll("\\s+", " ").strip();
    return flat.length() <= MAX_MESSAGE ? flat : flat.substring(0, MAX_MESSAGE - 3) + "...";
  }

  /**
   * Whether a failure with this SQLSTATE means the connection is gone: class 08 (connection
   * exception), 57P01..57P03 (admin/crash shutdown, cannot connect now), 53300 (too many
   * connections).
   */
  public static boolean connectionLost(String sqlState) {
    String s = sqlState.toUpperCase(Locale.ROOT);
    return s.startsWith("08") || s.startsWith("57P0") || s.equals("53300");
  }
}
