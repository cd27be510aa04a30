package dev.benchlake.analysis.report;

import dev.benchlake.core.TerminalText;
import java.util.Arrays;
import java.util.List;

/**
 * Markdown of the reports (report.md, trend.md), written one way: every string that may hold a
 * user's data (a label or selector, a step, a version, a run id, an error code, and every sentence
 * that quotes one) goes through {@link #code} or {@link #text} before it reaches a heading, a list
 * item, a paragraph or a table cell, so that a reader sees the string and nothing else: no HTML, no
 * link, no emphasis, no broken table, no extra line.
 *
 * <p>Both write a control character as its escape ({@code \n}, {@code \r}, {@code \t},
 * {@code \u0000}, and U+2028/U+2029 as {@code \u2028}), so a string stays on its line.
 * GitHub's extended autolinks (a bare {@code www.} or {@code https://} address, an e-mail address)
 * still show as links: they point somewhere, they run nothing.
 */
public final class Markdown {
  /** What a table cell shows for an undefined figure. */
  public static final String DASH = Format.DASH;

  private Markdown() {}

  /**
   * Inline code that shows {@code text} as it is, whatever it holds, in a paragraph, a list item
   * or a heading: HTML inside a code span is not rendered, and the fence has more backticks than
   * any run inside. In a table cell use {@link #codeCell}.
   */
  public static String code(String text) {
    return code(text, false);
  }

  /**
   * {@link #code} for a table cell: a {@code |} is also {@code \|}, which GFM tables take back
   * (even in code) and which splits no cell.
   */
  public static String codeCell(String text) {
    return code(text, true);
  }

  private static String code(String text, boolean inTable) {
    StringBuilder body = new StringBuilder(text.length() + 8);
    int longestRun = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      run = c == '`' ? run + 1 : 0;
      longestRun = Math.max(longestRun, run);
      if (c == '|' && inTable) {
        body.append("\\|");
      } else if (!control(c, body)) {
        body.append(c);
      }
    }
    String fence = "`".repeat(longestRun + 1);
    // CommonMark strips one space from each end of a code span that starts and ends with one (and is
    // not all spaces): pad such a body, and one that starts or ends with a backtick, so it shows whole.
    boolean spaces = !body.isEmpty() && body.charAt(0) == ' ' && body.charAt(body.length() - 1) == ' '
        && !body.chars().allMatch(c -> c == ' ');
    boolean pad = body.isEmpty() || spaces || body.charAt(0) == '`' || body.charAt(body.length() - 1) == '`';
    String padding = pad ? " " : "";
    return fence + padding + body + padding + fence;
  }

  /**
   * Plain text that reads as {@code text} in a heading, a list item, a paragraph or a table cell.
   * Backslash-escaped (CommonMark escapes any ASCII punctuation): {@code \ ` * [ < & | ~ $ #}, and
   * {@code _} where it could open or close emphasis (not between two letters or digits, as in
   * {@code db_major}, which stays as it is). That is every character that starts inline markup
   * (code, emphasis, links and images, HTML and autolinks in angle brackets, entities,
   * strikethrough, GitHub's math, a heading's closing hashes) and the table's {@code |}; what our
   * own sentences hold otherwise ({@code ( ) , . : ; = + -}) stays readable. A space at either end
   * is {@code &#32;}, which tables and headings do not trim, and a leading {@code - + > =} or
   * {@code 1.} is escaped too, so that the text may even start a line.
   */
  public static String text(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    int first = 0;
    while (first < text.length() && text.charAt(first) == ' ') {
      first++;
    }
    int last = text.length();
    while (last > first && text.charAt(last - 1) == ' ') {
      last--;
    }
    out.append("&#32;".repeat(first));
    int listMarker = first == 0 ? listMarkerAt(text) : -1;
    for (int i = first; i < last; i++) {
      char c = text.charAt(i);
      if (i == listMarker || (i == 0 && "-+>=".indexOf(c) >= 0)) {
        // At the start of a line these would open a list, a quote or a heading's underline.
        out.append('\\').append(c);
        continue;
      }
      switch (c) {
        case '\\', '`', '*', '[', '<', '&', '|', '~', '$', '#' -> out.append('\\').append(c);
        case '_' -> out.append(i > 0 && i + 1 < text.length() && Character.isLetterOrDigit(text.charAt(i - 1))
            && Character.isLetterOrDigit(text.charAt(i + 1)) ? "_" : "\\_");
        default -> {
          if (!control(c, out)) {
            out.append(c);
          }
        }
      }
    }
    out.append("&#32;".repeat(text.length() - last));
    return out.toString();
  }

  /**
   * Where {@code 12. } or {@code 12) } at the start of {@code text} would open an ordered list: the
   * index of its mark; else −1.
   */
  private static int listMarkerAt(String text) {
    int i = 0;
    while (i < text.length() && i < 9 && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
      i++;
    }
    boolean mark = i > 0 && i < text.length() && (text.charAt(i) == '.' || text.charAt(i) == ')');
    // A list needs a space (or nothing) after the mark: 9.6, a version, is no list.
    return mark && (i + 1 == text.length() || text.charAt(i + 1) == ' ' || text.charAt(i + 1) == '\t') ? i : -1;
  }

  /** A table row of cells already in Markdown ({@link #code}, {@link #text}, figures); null is a dash. */
  public static void row(StringBuilder md, Object... cells) {
    row(md, Arrays.asList(cells));
  }

  /** A table row of cells already in Markdown; null is a dash. */
  public static void row(StringBuilder md, List<?> cells) {
    md.append('|');
    for (Object cell : cells) {
      md.append(' ').append(cell == null ? DASH : cell.toString().replace("\n", " ")).append(" |");
    }
    md.append('\n');
  }

  /**
   * What a reader must know before the figures ({@link Uncorrected}), each a quoted paragraph
   * marked ⚠: {@code > ⚠ Uncorrected over 12 steps …}.
   */
  public static String warnings(List<String> warnings) {
    StringBuilder md = new StringBuilder();
    warnings.forEach(w -> md.append("> ⚠ ").append(text(w)).append("\n\n"));
    return md.toString();
  }

  /**
   * Appends the escape of {@code c} when it is a control character (or a line separator); false
   * otherwise. The same escapes as every terminal line ({@link TerminalText}): a name reads alike everywhere.
   */
  private static boolean control(char c, StringBuilder out) {
    if (!TerminalText.isControl(c)) {
      return false;
    }
    TerminalText.appendEscape(c, out);
    return true;
  }
}
