package dev.benchlake.analysis.html;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTML pages' templates and assets, from the class path next to this class
 * ({@code dev/benchlake/analysis/html/}): Mustache templates ({@code NAME.mustache}, partials
 * included with {@code {{> NAME}}}), CSS and JavaScript.
 *
 * <p>Templates are logic-less and every {@code {{value}}} is HTML-escaped ({@code & < > " ' ` =},
 * control characters as backslash-u escapes: {@link HtmlEscaper}), so text from the data (labels, step names, error messages) can only ever show as text. Only our
 * own assets and {@link ScriptJson} output go in unescaped, with {@code {{{…}}}}. A value the
 * template names but the view lacks is an error, not an empty string.
 */
public final class HtmlTemplates {
  private static final String ROOT = "/dev/benchlake/analysis/html/";
  private static final Map<String, String> TEXTS = new ConcurrentHashMap<>();
  private static final Mustache.Compiler COMPILER = Mustache.compiler()
      .withEscaper(HtmlEscaper.INSTANCE)
      .strictSections(true)
      .withLoader(name -> new StringReader(text(name + ".mustache")));
  private static final Map<String, Template> TEMPLATES = new ConcurrentHashMap<>();

  private HtmlTemplates() {}

  /** Renders template {@code name} ({@code name.mustache}) with {@code view}. */
  public static String render(String name, Object view) {
    return TEMPLATES.computeIfAbsent(name, n -> COMPILER.compile(text(n + ".mustache"))).execute(view);
  }

  /** {@code text} HTML-escaped as the templates escape every value: for markup built in code (an SVG's labels). */
  public static String escape(String text) {
    return HtmlEscaper.INSTANCE.escape(text);
  }

  /** A resource of this folder as text, e.g. {@code base.css}, {@code vendor/vega.min.js}. */
  public static String text(String relativePath) {
    return TEXTS.computeIfAbsent(relativePath, HtmlTemplates::load);
  }

  private static String load(String relativePath) {
    try (InputStream in = HtmlTemplates.class.getResourceAsStream(ROOT + relativePath)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + ROOT + relativePath);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
