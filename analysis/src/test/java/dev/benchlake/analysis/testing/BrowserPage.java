package dev.benchlake.analysis.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.HeadlessChromium;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A report page as headless Chromium rendered it: the DOM after its scripts ran (charts included),
 * and a screenshot kept under {@code target/screenshots/} as a build artifact.
 */
public final class BrowserPage {
  private static final Pattern CHART = Pattern.compile("<div class=\"chart[ \"][^>]*>");
  private static final Pattern SCRIPT = Pattern.compile("(?s)(<script[^>]*>).*?</script>");
  private static final Pattern ID = Pattern.compile(" id=\"([^\"]+)\"");
  private static final Pattern MARKS = Pattern.compile(" data-marks=\"(\\d+)\"");

  private final String dom;
  private final String markup;

  private BrowserPage(String dom) {
    this.dom = dom;
    this.markup = SCRIPT.matcher(dom).replaceAll("$1</script>");
  }

  /** Renders {@code html} at {@code widthPx} × {@code heightPx}, the screenshot named {@code name}.png. */
  public static BrowserPage render(Path html, String name, int widthPx, int heightPx) throws IOException, InterruptedException {
    Path screenshot = Path.of("target", "screenshots", name + ".png");
    HeadlessChromium.Rendered rendered = HeadlessChromium.render(html, screenshot, widthPx, heightPx, Duration.ofSeconds(20));
    return new BrowserPage(rendered.dom());
  }

  /** The whole DOM, scripts included. */
  public String dom() {
    return dom;
  }

  /** The DOM without the text of its script elements (which hold the data and the page's code). */
  public String markup() {
    return markup;
  }

  /** Chart id → data marks drawn, for every chart container of the page. */
  public Map<String, Integer> charts() {
    Map<String, Integer> charts = new LinkedHashMap<>();
    Matcher chart = CHART.matcher(markup);
    while (chart.find()) {
      String tag = chart.group();
      Matcher id = ID.matcher(tag);
      Matcher marks = MARKS.matcher(tag);
      charts.put(id.find() ? id.group(1) : tag, marks.find() ? Integer.valueOf(marks.group(1)) : 0);
    }
    return charts;
  }

  /** No script error was recorded, every chart drew data marks into an SVG, and none failed. */
  public void assertRenderedCleanly(int expectedCharts) {
    assertThat(markup).as("the error hook ran and recorded no script error")
        .contains("id=\"js-errors\" data-count=\"0\"");
    assertThat(markup).doesNotContain("data-chart-error");
    Map<String, Integer> charts = charts();
    assertThat(charts).as("chart containers").hasSize(expectedCharts);
    assertThat(charts).allSatisfy((id, marks) -> assertThat(marks).as("data marks of chart " + id).isPositive());
    assertThat(countOf(markup, "<svg")).as("SVG elements").isGreaterThanOrEqualTo(expectedCharts);
  }

  /** Occurrences of {@code text} in {@code in}. */
  public static int countOf(String in, String text) {
    String dom = in;
    int count = 0;
    for (int at = dom.indexOf(text); at >= 0; at = dom.indexOf(text, at + 1)) {
      count++;
    }
    return count;
  }
}
