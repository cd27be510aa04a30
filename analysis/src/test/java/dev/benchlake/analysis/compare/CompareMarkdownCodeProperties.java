package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@code CompareMarkdown.code}, which puts every user string (step, run id, selector, error code)
 * into report.md, under generated hostile strings ({@value #TRIES} per property, fixed seed): the
 * result is one code span, on one line, that no GFM table splits, and a reader sees the string
 * itself (control characters as their escapes). Empty strings are out of scope: no field that
 * reaches a report may be empty (tasks.csv rejects an empty step, selectors and run ids are checked).
 */
class CompareMarkdownCodeProperties {
  static final int TRIES = 2000;
  private static final String SEED = "20260108";
  private static final Pattern SPAN = Pattern.compile("(`+)(?!`)(.*)(?<!`)\\1");

  /** Strings made mostly of the characters that attack Markdown, HTML and JSON. */
  @Provide
  Arbitrary<String> hostile() {
    Arbitrary<Character> attack = Arbitraries.of('`', '|', '\\', '\n', '\r', '\t', '\u0000', '\u001b', '\u2028', '<',
        '>', '"', '\'', '*', '_', '#', '[', ']', '(', ')', ' ', '&', ';');
    Arbitrary<Character> any = Arbitraries.chars();
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, attack), net.jqwik.api.Tuple.of(1, any))
        .list().ofMinSize(1).ofMaxSize(40).map(cs -> {
          StringBuilder sb = new StringBuilder();
          cs.forEach(sb::append);
          return sb.toString();
        });
  }

  @Property(tries = TRIES, seed = SEED)
  void oneCodeSpanOnOneLineThatShowsTheString(@ForAll("hostile") String text) {
    String code = CompareMarkdown.code(text);
    assertThat(code).as("one line").doesNotContain("\n").doesNotContain("\r").doesNotContain("\u2028");
    assertThat(code.chars().filter(Character::isISOControl)).as("no control character").isEmpty();
    assertThat(code.split("(?<!\\\\)\\|", -1)).as("no '|' that a GFM table would split on").hasSize(1);
    Matcher m = SPAN.matcher(code);
    assertThat(m.matches()).as(code).isTrue();
    String fence = m.group(1);
    assertThat(Pattern.compile("(?<!`)" + fence + "(?!`)").matcher(m.group(2)).find())
        .as("the fence %s does not occur inside %s", fence, code).isFalse();
    assertThat(MarkdownCodeSpans.visible(m)).isEqualTo(escapedControls(text));
  }

  @Example
  void examples() {
    assertThat(CompareMarkdown.code("read")).isEqualTo("`read`");
    assertThat(CompareMarkdown.code("a|b")).isEqualTo("`a\\|b`");
    assertThat(CompareMarkdown.code("`x`")).isEqualTo("`` `x` ``");
    assertThat(CompareMarkdown.code("a\nb\u0000")).isEqualTo("`a\\nb\\u0000`");
    assertThat(CompareMarkdown.code("<script>")).isEqualTo("`<script>`");
  }

  /** The text as a reader should see it: control characters written as escapes. */
  private static String escapedControls(String text) {
    StringBuilder sb = new StringBuilder();
    for (char c : text.toCharArray()) {
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
            ? String.format(java.util.Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return sb.toString();
  }
}
