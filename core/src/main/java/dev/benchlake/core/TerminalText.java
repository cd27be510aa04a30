package dev.benchlake.core;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.Locale;

/**
 * The one rule for text benchlake prints to a terminal (stdout and stderr: errors, progress lines,
 * tables, the change-point gate, logs): control characters are shown as escapes, never sent. A
 * step name, label, file name or error message is data from a file or a user, and a terminal acts
 * on the control characters in it: ESC starts sequences that recolour the screen, move the cursor,
 * set the window's title or (on some terminals) answer back into its input; CR overwrites a line;
 * BEL rings; C1's CSI (U+009B) is ESC [ on terminals that take 8-bit controls.
 *
 * <p>What is a control character: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F), as
 * {@link Character#isISOControl}, and the Unicode line and paragraph separators (U+2028, U+2029),
 * which some terminals and viewers break lines at. How it shows: {@code \n}, {@code \r},
 * {@code \t}, else {@code \u001b}-style: the escapes report.md and report.json use, so a name reads
 * the same in every output. A backslash is kept as it is (a Windows path stays readable), so an
 * escape is not told apart from the same six characters typed; what matters is that none acts.
 *
 * <p>Two ways to apply it: {@link #escape} for a value on its own line or in a table cell (every
 * control escaped, the tab and the newline too: one value, one line, and a table's columns stay
 * aligned); {@link #escapeLines} and {@link #escaping} for a whole stream of lines (picocli's out and
 * err, which {@code Cli} wraps, and the launcher's log lines), which keep the layout characters
 * {@code \n} and {@code \t} (a stack trace's indent): neither sets anything on a terminal. What
 * benchlake itself means as a control (the {@code \r} of a live progress line) goes through
 * {@link #raw}, with its text escaped by the caller.
 */
public final class TerminalText {
  private TerminalText() {}

  /** {@code text} with every control character shown as its escape (newlines too): one line. */
  public static String escape(CharSequence text) {
    return text == null ? null : escape(text, false);
  }

  /** {@code text} escaped as {@link #escape} does, but its line ends and tabs kept: several lines. */
  public static String escapeLines(CharSequence text) {
    return escape(text, true);
  }

  private static String escape(CharSequence text, boolean keepLayout) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isControl(c) && !(keepLayout && (c == '\n' || c == '\t'))) {
        if (out == null) {
          out = new StringBuilder(text.length() + 16).append(text, 0, i);
        }
        appendEscape(c, out);
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text.toString() : out.toString();
  }

  /** Whether {@code c} is a control character as this rule means it (see the class comment). */
  public static boolean isControl(char c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }

  /** Appends the escape of the control character {@code c} ({@code \n}, {@code \r}, {@code \t}, {@code \u001b}). */
  public static void appendEscape(char c, StringBuilder out) {
    switch (c) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
    }
  }

  /**
   * {@code out} as a writer that escapes what it is given as {@link #escapeLines} does;
   * {@code out} itself when it already is one.
   */
  public static PrintWriter escaping(Writer out) {
    return out instanceof Escaping escaping ? escaping : new Escaping(out);
  }

  /**
   * The writer under an {@link #escaping} one, for the controls benchlake means itself (a live
   * line's {@code \r}): the caller escapes the text it writes there. Any other writer is its own.
   */
  public static PrintWriter raw(PrintWriter out) {
    return out instanceof Escaping escaping ? escaping.raw : out;
  }

  /** Escapes what it writes ({@link #escapeLines}); flushes on println as picocli's writers do. */
  private static final class Escaping extends PrintWriter {
    private final PrintWriter raw;

    Escaping(Writer out) {
      super(out, true);
      this.raw = out instanceof PrintWriter print ? print : new PrintWriter(out, true);
    }

    @Override
    public void write(int c) {
      String escaped = escapeLines(String.valueOf((char) c));
      super.write(escaped, 0, escaped.length());
    }

    @Override
    public void write(char[] buf, int off, int len) {
      String escaped = escapeLines(new String(buf, off, len));
      super.write(escaped, 0, escaped.length());
    }

    @Override
    public void write(String s, int off, int len) {
      String escaped = escapeLines(s.substring(off, off + len));
      super.write(escaped, 0, escaped.length());
    }
  }
}
