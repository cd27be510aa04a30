package dev.benchlake.analysis.compare;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading report.md's code spans back as a Markdown renderer would (CommonMark's code span rules). */
public final class MarkdownCodeSpans {
  /** A code span: a backtick fence, the body, the same fence. */
  public static final Pattern CODE_SPAN = Pattern.compile("(`+)(?!`)(.*?)(?<!`)\\1(?!`)");

  private MarkdownCodeSpans() {}

  /** What a code span matched by {@link #CODE_SPAN} shows (one space stripped each side when both are). */
  public static String visible(Matcher m) {
    String body = m.group(2);
    if (body.length() >= 2 && body.startsWith(" ") && body.endsWith(" ") && !body.chars().allMatch(c -> c == ' ')) {
      body = body.substring(1, body.length() - 1);
    }
    return body.replace("\\|", "|");
  }
}
