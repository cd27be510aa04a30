package dev.benchlake.ingest.source;

/**
 * The UTF-8 byte-order mark (EF BB BF) that Windows tools (Notepad, .NET's default UTF-8 writer,
 * the 2016 study's C# harness) put before a file's first line. It is not part of the line: every
 * reader of a file's text drops it from the start of the file, so that the first line parses as it
 * would without it. A BOM anywhere else is data (and a reject where the format has no room for it).
 */
public final class Bom {
  /** The mark decoded (U+FEFF). */
  private static final char CHAR = '\uFEFF';

  private Bom() {}

  /** {@code text} (the start of a file, decoded) without the mark. */
  public static String strip(String text) {
    return !text.isEmpty() && text.charAt(0) == CHAR ? text.substring(1) : text;
  }
}
