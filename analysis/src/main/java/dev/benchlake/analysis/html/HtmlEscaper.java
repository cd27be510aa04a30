package dev.benchlake.analysis.html;

import com.samskivert.mustache.Escapers;
import com.samskivert.mustache.Mustache;
import java.util.Locale;

/**
 * The templates' escaper: Mustache's HTML escaping ({@code & < > " ' ` =}), and every other
 * control character (and U+2028/U+2029) written as backslash-u and four hex digits — as report.md does —
 * so that a NUL or an ANSI escape in a label shows instead of vanishing or reaching the parser.
 * Tab, CR and LF stay: in HTML text they are white space.
 */
final class HtmlEscaper implements Mustache.Escaper {
  static final HtmlEscaper INSTANCE = new HtmlEscaper();

  private HtmlEscaper() {}

  @Override
  public String escape(String raw) {
    String html = Escapers.HTML.escape(raw);
    StringBuilder out = null;
    for (int i = 0; i < html.length(); i++) {
      char c = html.charAt(i);
      boolean control = (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') || c == '\u2028' || c == '\u2029';
      if (control && out == null) {
        out = new StringBuilder(html.length() + 16).append(html, 0, i);
      }
      if (out != null) {
        out.append(control ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return out == null ? html : out.toString();
  }
}
