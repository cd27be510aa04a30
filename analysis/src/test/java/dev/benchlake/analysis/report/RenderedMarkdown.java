package dev.benchlake.analysis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;

/**
 * A report's Markdown as a reader's viewer sees it: parsed by commonmark-java with GFM tables
 * (what GitHub renders), read back as headings, tables, list items and their visible text.
 */
public final class RenderedMarkdown {
  private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

  private final Node document;

  private RenderedMarkdown(Node document) {
    this.document = document;
  }

  public static RenderedMarkdown of(String markdown) {
    return new RenderedMarkdown(PARSER.parse(markdown));
  }

  /** Every node of the document, depth first. */
  public List<Node> nodes() {
    List<Node> all = new ArrayList<>();
    collect(document, all);
    return all;
  }

  /** The nodes that turn text into markup a string must never become: HTML, links, images. */
  public List<Node> markup() {
    return nodes().stream().filter(n -> n instanceof HtmlInline || n instanceof HtmlBlock || n instanceof Link
        || n instanceof Image).toList();
  }

  /** The visible text of each heading of {@code level}, in order. */
  public List<String> headings(int level) {
    return nodes().stream().filter(n -> n instanceof Heading h && h.getLevel() == level).map(RenderedMarkdown::text)
        .toList();
  }

  /** Each table as its rows of cell texts, header row first. */
  public List<List<List<String>>> tables() {
    List<List<List<String>>> tables = new ArrayList<>();
    for (Node n : nodes()) {
      if (n instanceof TableBlock) {
        List<List<String>> rows = new ArrayList<>();
        List<Node> inside = new ArrayList<>();
        collect(n, inside);
        for (Node row : inside) {
          if (row instanceof TableRow) {
            List<String> cells = new ArrayList<>();
            for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
              if (cell instanceof TableCell) {
                cells.add(text(cell));
              }
            }
            rows.add(cells);
          }
        }
        tables.add(rows);
      }
    }
    return tables;
  }

  /** The visible text of every list item, in order. */
  public List<String> listItems() {
    return nodes().stream().filter(n -> n instanceof ListItem).map(RenderedMarkdown::text).toList();
  }

  /** The literal of every code span, in order. */
  public List<String> codeSpans() {
    return nodes().stream().filter(n -> n instanceof Code).map(n -> ((Code) n).getLiteral()).toList();
  }

  /** How many nodes match. */
  public long count(Predicate<Node> test) {
    return nodes().stream().filter(test).count();
  }

  /** The visible text under {@code node}: its text and code literals, soft breaks as spaces. */
  public static String text(Node node) {
    StringBuilder sb = new StringBuilder();
    appendText(node, sb);
    return sb.toString();
  }

  /** The text as a reader should see a string of data: control characters written as escapes. */
  public static String escapedControls(String text) {
    StringBuilder sb = new StringBuilder();
    for (char c : text.toCharArray()) {
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
            ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return sb.toString();
  }

  private static void appendText(Node node, StringBuilder sb) {
    if (node instanceof Text t) {
      sb.append(t.getLiteral());
    } else if (node instanceof Code c) {
      sb.append(c.getLiteral());
    } else if (node instanceof org.commonmark.node.SoftLineBreak) {
      sb.append(' ');
    }
    for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
      appendText(child, sb);
    }
  }

  private static void collect(Node node, List<Node> into) {
    into.add(node);
    for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
      collect(child, into);
    }
  }
}
