package dev.benchlake.analysis.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading report.md's code spans back as a Markdown renderer would (CommonMark's code span rules,
 * and GFM's {@code \|} in a table cell), for tests that look at the text line by line.
 */
public final class MarkdownCodeSpans {
  /** A code span: a backtick fence, the body, the same fence. */
  public static final Pattern CODE_SPAN = Pattern.compile("(`+)(?!`)(.*?)(?<!`)\\1(?!`)");

  private MarkdownCodeSpans() {}

  /**
   * What a code span matched by {@link #CODE_SPAN} shows outside a table (one space stripped each
   * side when both are).
   */
  public static String visible(Matcher m) {
    String body = m.group(2);
    if (body.length() >= 2 && body.startsWith(" ") && body.endsWith(" ") && !body.chars().allMatch(c -> c == ' ')) {
      body = body.substring(1, body.length() - 1);
    }
    return body;
  }

  /** What it shows in a GFM table cell, which takes {@code \|} back as {@code |}. */
  public static String visibleInTable(Matcher m) {
    return visible(m).replace("\\|", "|");
  }
}
