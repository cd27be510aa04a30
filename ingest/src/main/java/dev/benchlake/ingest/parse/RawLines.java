package dev.benchlake.ingest.parse;

/** Keeps rejected lines readable in the {@code rejects} table without storing megabytes of garbage. */
public final class RawLines {
  /** Longest raw line kept in a reject, in characters. */
  public static final int MAX_CHARS = 2000;

  private RawLines() {}

  /** {@code line}, cut at {@link #MAX_CHARS} with a note saying how much was cut. */
  public static String truncate(String line) {
    if (line.length() <= MAX_CHARS) {
      return line;
    }
    return line.substring(0, MAX_CHARS) + "… [" + (line.length() - MAX_CHARS) + " more characters]";
  }

  /** The line, shortened for a one-line message. */
  public static String quote(String line, int maxChars) {
    String oneLine = line.replace('\t', ' ');
    return "'" + (oneLine.length() <= maxChars ? oneLine : oneLine.substring(0, maxChars) + "…") + "'";
  }
}
