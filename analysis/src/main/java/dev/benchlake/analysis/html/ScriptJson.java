package dev.benchlake.analysis.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.UncheckedIOException;

/**
 * JSON to embed in an HTML page as {@code <script type="application/json">…</script>}, read back
 * with {@code JSON.parse(element.textContent)}.
 *
 * <p>Inside a script element the HTML parser looks only for {@code </script} (and, in older rules,
 * {@code <!--}); JSON strings may hold any text, including a hostile label. So {@code <}, {@code >}
 * and {@code &} are written as the JSON escapes {@code \u003c}, {@code \u003e}, {@code \u0026}, and
 * U+2028/U+2029 (line terminators in older JavaScript) as {@code \u2028}/{@code \u2029}. Outside
 * strings JSON has none of these characters, so replacing them in the whole text only ever changes
 * string contents, and {@code JSON.parse} gives back exactly the original strings.
 */
public final class ScriptJson {
  private ScriptJson() {}

  public static String of(JsonNode node) {
    String json;
    try {
      json = Json.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
          .writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder safe = new StringBuilder(json.length() + 64);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      switch (c) {
        case '<' -> safe.append("\\u003c");
        case '>' -> safe.append("\\u003e");
        case '&' -> safe.append("\\u0026");
        case '\u2028' -> safe.append("\\u2028");
        case '\u2029' -> safe.append("\\u2029");
        default -> safe.append(c);
      }
    }
    return safe.toString();
  }
}
