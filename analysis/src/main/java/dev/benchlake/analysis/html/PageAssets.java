package dev.benchlake.analysis.html;

import java.util.List;
import java.util.Locale;

/**
 * What every report page inlines, so that one HTML file renders offline: the stylesheet, the
 * error hook (first script of the page: it records every script error in the DOM, for readers and
 * for the browser tests), the vendored Vega, Vega-Lite and vega-embed builds, and the shared chart
 * helpers. Templates put these in unescaped ({@code {{{…}}}}): they are our own files, checked here
 * never to contain {@code </script}, which would end their script element early.
 */
public record PageAssets(String css, String errorHook, String vega, String vegaLite, String vegaEmbed, String charts) {
  private static final List<String> VENDORED = List.of("vendor/vega.min.js", "vendor/vega-lite.min.js",
      "vendor/vega-embed.min.js");

  /** The assets, read once from the class path. */
  public static PageAssets get() {
    return Holder.ASSETS;
  }

  private static final class Holder {
    static final PageAssets ASSETS = new PageAssets(HtmlTemplates.text("base.css"), script("error-hook.js"),
        script(VENDORED.get(0)), script(VENDORED.get(1)), script(VENDORED.get(2)), script("charts.js"));
  }

  private static String script(String path) {
    String text = HtmlTemplates.text(path);
    if (text.toLowerCase(Locale.ROOT).contains("</script")) {
      throw new IllegalStateException(path + " contains '</script', which would end its script element");
    }
    return text;
  }
}
