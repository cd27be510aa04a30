package dev.benchlake.analysis.report;

import static dev.benchlake.analysis.report.RenderedMarkdown.escapedControls;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.commonmark.node.Emphasis;
import org.commonmark.node.StrongEmphasis;

/**
 * {@link Markdown#code} and {@link Markdown#text}, which put every user string (a step, a version, a
 * run id, a selector, a label, an error code, a sentence quoting one) into report.md and trend.md,
 * under generated hostile strings ({@value #TRIES} per property, fixed seed), rendered by a real
 * CommonMark parser with GFM tables: in a paragraph, a heading and a table cell the reader sees the
 * string itself (control characters as their escapes) and no markup, and a table keeps its cells.
 * Empty strings are out of scope: no field that reaches a report may be empty (tasks.csv rejects
 * an empty step, selectors and run ids are checked).
 */
public class MarkdownProperties {
  static final int TRIES = 2000;
  private static final String SEED = "20260108";
  private static final Pattern SPAN = Pattern.compile("(`+)(?!`)(.*)(?<!`)\\1");

  /**
   * Strings made mostly of the characters that attack Markdown, HTML and JSON, and of whole pieces
   * of markup (a tag, a link, emphasis, an entity, an autolink).
   */
  @Provide
  public static Arbitrary<String> hostile() {
    Arbitrary<String> attack = Arbitraries.of('`', '|', '\\', '\n', '\r', '\t', '\u0000', '\u001b', '\u2028', '<',
        '>', '"', '\'', '*', '_', '#', '[', ']', '(', ')', ' ', '&', ';', '~', '$', '!', '-', '+', '=', '.', '1', 'a',
        ':', '/').map(String::valueOf);
    Arbitrary<String> markup = Arbitraries.of("<b>", "</b>", "<script>alert(1)</script>", "<!--", "[x](y)", "![i](j)",
        "](", "*x*", "**", "__", "_y_", "~~", "$x$", "&amp;", "&#32;", "<http://a.b>", "<a@b.c>", "```", "\\|", "1. ",
        "- ", "> ", "# ", "---");
    Arbitrary<String> any = Arbitraries.chars().map(String::valueOf);
    return Arbitraries.frequencyOf(Tuple.of(8, attack), Tuple.of(2, markup), Tuple.of(2, any)).list().ofMinSize(1)
        .ofMaxSize(24).map(pieces -> String.join("", pieces));
  }

  @Property(tries = TRIES, seed = SEED)
  void codeIsOneSpanOnOneLineThatShowsTheString(@ForAll("hostile") String text) {
    for (boolean inTable : new boolean[] {false, true}) {
      String code = inTable ? Markdown.codeCell(text) : Markdown.code(text);
      assertThat(code).as("one line").doesNotContain("\n").doesNotContain("\r").doesNotContain("\u2028");
      assertThat(code.chars().filter(Character::isISOControl)).as("no control character").isEmpty();
      Matcher m = SPAN.matcher(code);
      assertThat(m.matches()).as(code).isTrue();
      String fence = m.group(1);
      assertThat(Pattern.compile("(?<!`)" + fence + "(?!`)").matcher(m.group(2)).find())
          .as("the fence %s does not occur inside %s", fence, code).isFalse();
      String visible = escapedControls(text);
      if (inTable) {
        assertThat(code.split("(?<!\\\\)\\|", -1)).as("no '|' that a GFM table would split on").hasSize(1);
        assertThat(MarkdownCodeSpans.visibleInTable(m)).isEqualTo(visible);
        RenderedMarkdown cell = RenderedMarkdown.of(table(code));
        assertThat(cell.tables()).singleElement().satisfies(t -> assertThat(t.get(1)).containsExactly(visible, "x"));
        assertThat(cell.codeSpans()).containsExactly(visible);
      } else {
        assertThat(MarkdownCodeSpans.visible(m)).isEqualTo(visible);
        RenderedMarkdown item = RenderedMarkdown.of("- a " + code + " b\n\n## " + code + "\n");
        assertThat(item.codeSpans()).containsExactly(visible, visible);
        assertThat(item.markup()).isEmpty();
      }
    }
  }

  @Property(tries = TRIES, seed = SEED)
  void textReadsAsTheStringInAParagraphAHeadingAndATableCell(@ForAll("hostile") String text) {
    String escaped = Markdown.text(text);
    String visible = escapedControls(text);
    assertThat(escaped).as("one line").doesNotContain("\n").doesNotContain("\r").doesNotContain("\u2028");
    RenderedMarkdown paragraph = RenderedMarkdown.of(escaped + "\n");
    assertThat(RenderedMarkdown.text(paragraph.nodes().get(0))).as(escaped).isEqualTo(visible);
    assertNoMarkup(paragraph, escaped);
    assertThat(paragraph.count(n -> n instanceof org.commonmark.node.Paragraph)).as(escaped).isEqualTo(1);
    RenderedMarkdown heading = RenderedMarkdown.of("## " + escaped + "\n");
    assertThat(heading.headings(2)).as(escaped).containsExactly(visible);
    assertNoMarkup(heading, escaped);
    RenderedMarkdown cell = RenderedMarkdown.of(table(escaped));
    assertThat(cell.tables()).as(escaped).singleElement().satisfies(t -> assertThat(t.get(1)).containsExactly(visible, "x"));
    assertNoMarkup(cell, escaped);
    RenderedMarkdown item = RenderedMarkdown.of("- " + escaped + "\n");
    assertThat(item.listItems()).as(escaped).containsExactly(visible);
  }

  @Example
  void examples() {
    assertThat(Markdown.code("read")).isEqualTo("`read`");
    assertThat(Markdown.code("a|b")).isEqualTo("`a|b`");
    assertThat(Markdown.codeCell("a|b")).isEqualTo("`a\\|b`");
    assertThat(Markdown.code("`x`")).isEqualTo("`` `x` ``");
    assertThat(Markdown.code("a\nb\u0000")).isEqualTo("`a\\nb\\u0000`");
    assertThat(Markdown.code("<script>")).isEqualTo("`<script>`");
    assertThat(Markdown.text("db_major")).as("an underscore inside a word stays").isEqualTo("db_major");
    assertThat(Markdown.text("9.6")).isEqualTo("9.6");
    assertThat(Markdown.text("<b>*x*</b> | [a](b)")).isEqualTo("\\<b>\\*x\\*\\</b> \\| \\[a](b)");
    assertThat(Markdown.text(" _x_ ")).isEqualTo("&#32;\\_x\\_&#32;");
    assertThat(Markdown.text("1. x")).isEqualTo("1\\. x");
  }

  private static String table(String cell) {
    return "| a | b |\n| --- | --- |\n| " + cell + " | x |\n";
  }

  private static void assertNoMarkup(RenderedMarkdown rendered, String escaped) {
    assertThat(rendered.markup()).as("HTML, links, images in %s", escaped).isEmpty();
    assertThat(rendered.count(n -> n instanceof Emphasis || n instanceof StrongEmphasis
        || n instanceof org.commonmark.node.Code)).as("emphasis or code in %s", escaped).isZero();
    assertThat(List.of(escaped)).isNotEmpty();
  }
}
