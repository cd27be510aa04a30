package dev.benchlake.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with aligned columns, for terminals (not Markdown: see the report writers);
 * each cell one line, its control characters shown as escapes ({@link TerminalText}) before the
 * columns are measured, so they stay aligned.
 */
public final class TextTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public TextTable(String... header) {
    this.header = List.of(header);
  }

  public TextTable row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.length);
    }
    List<String> row = new ArrayList<>(cells.length);
    for (Object cell : cells) {
      row.add(cell == null ? "" : TerminalText.escape(cell.toString()));
    }
    rows.add(row);
    return this;
  }

  /** The table, each line ending in {@code \n}, columns separated by two spaces. */
  public String render() {
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    appendRow(header, widths, sb);
    for (List<String> row : rows) {
      appendRow(row, widths, sb);
    }
    return sb.toString();
  }

  private static void appendRow(List<String> cells, int[] widths, StringBuilder sb) {
    int mark = sb.length();
    for (int i = 0; i < cells.size(); i++) {
      sb.append(cells.get(i));
      if (i < cells.size() - 1) {
        sb.append(" ".repeat(widths[i] - cells.get(i).length() + 2));
      }
    }
    // No trailing blanks: they make golden files fragile.
    int end = sb.length();
    while (end > mark && sb.charAt(end - 1) == ' ') {
      end--;
    }
    sb.setLength(end);
    sb.append('\n');
  }

}
