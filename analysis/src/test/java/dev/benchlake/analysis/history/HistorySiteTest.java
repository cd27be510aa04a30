package dev.benchlake.analysis.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.testing.BrowserPage;
import dev.benchlake.analysis.trend.TrendAnalysis;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29.2: the history site of a seeded nightly series (50 nights, two of them without a run;
 * a step that drops 15 % at night 30, one that gains 20 % at night 40, one of pure noise, and one
 * whose name is markup), rendered in headless Chromium: the index lists what changed newest first
 * with a sparkline per step and links that resolve; a step's page draws every night as a point,
 * breaks its line at the missing nights, marks the change point with its levels and ratio, and
 * lists the runs behind every value.
 */
class HistorySiteTest {
  private static final LocalDate FIRST = LocalDate.of(2026, 9, 1);
  private static final String MARKUP = "<b>bold</b>";

  private static String date(int night) {
    return FIRST.plusDays(night).toString();
  }

  private static TrendReport nightly() {
    SplittableRandom random = new SplittableRandom(11);
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    for (int night = 0; night < 50; night++) {
      if (night == 20 || night == 21) {
        continue;
      }
      String run = "run-" + night;
      runs.put(date(night), List.of(run));
      observations.add(point(run, night, "drops", 1000 * (night >= 30 ? 0.85 : 1), random));
      observations.add(point(run, night, "gains", 500 * (night >= 40 ? 1.2 : 1), random));
      observations.add(point(run, night, "noise", 2000, random));
      observations.add(point(run, night, MARKUP, 100, random));
    }
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, "qps"), List.of());
  }

  private static Observation point(String run, int night, String step, double level, SplittableRandom random) {
    double gaussian = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    return new Observation(run, date(night), step, level * Math.exp(0.015 * gaussian));
  }

  @Test
  void theIndexSaysWhatChangedNewestFirstAndEveryStepPageDrawsItsSeries(@TempDir Path dir) throws Exception {
    TrendReport report = nightly();
    Path site = dir.resolve("site");
    HistorySite.write(report, new Provenance("benchlake history --warehouse wh --out site", "wh", 3, "test"), site);
    try (Stream<Path> pages = Files.list(site.resolve(HistorySite.STEPS))) {
      assertThat(pages.count()).isEqualTo(4);
    }
    assertThat(site.resolve(HistorySite.JSON)).isNotEmptyFile();

    BrowserPage index = BrowserPage.render(site.resolve(HistorySite.INDEX), "history-index", 1366, 1400);
    String markup = index.markup();
    // What changed: the gain at night 40 before the drop at night 30, each linked to its step's page.
    int gain = markup.indexOf(">" + date(40) + "<");
    int drop = markup.indexOf(">" + date(30) + "<");
    assertThat(gain).as("the gain's row").isPositive();
    assertThat(drop).as("the drop's row").isGreaterThan(gain);
    assertThat(markup).containsPattern("▲ \\+(1[789]|2[01])\\.\\d%").containsPattern("▼ -1[456]\\.\\d%")
        .contains("4 steps, 48 values of date from " + date(0) + " to " + date(49) + ", 2 days without a run");
    // One sparkline per step, with the change points' rules; every link resolves to a page.
    assertThat(Pattern.compile("<svg class=\"series\"").matcher(markup).results().count()).isEqualTo(4);
    Matcher href = Pattern.compile("href=\"(steps/[^\"]+)\"").matcher(markup);
    int links = 0;
    while (href.find()) {
      assertThat(site.resolve(href.group(1))).as(href.group(1)).isRegularFile();
      links++;
    }
    assertThat(links).as("a link per change point and per step").isGreaterThanOrEqualTo(2 + 4);
    // A step named like markup shows as text.
    assertThat(markup).contains("&lt;b&gt;bold&lt;/b&gt;").doesNotContain(MARKUP);

    Path dropsPage;
    try (Stream<Path> pages = Files.list(site.resolve(HistorySite.STEPS))) {
      dropsPage = pages.filter(p -> p.getFileName().toString().endsWith("-drops.html")).findFirst().orElseThrow();
    }
    BrowserPage step = BrowserPage.render(dropsPage, "history-step", 1366, 1400);
    String page = step.markup();
    assertThat(Pattern.compile("<circle class=\"point\"").matcher(page).results().count()).as("a point a night")
        .isEqualTo(48);
    Matcher path = Pattern.compile("<path class=\"line\"[^>]* d=\"([^\"]+)\"").matcher(page);
    assertThat(path.find()).isTrue();
    assertThat(path.group(1).chars().filter(c -> c == 'M').count()).as("the line breaks at the missing nights")
        .isEqualTo(2);
    assertThat(page).contains("stroke-dasharray").containsPattern("▼ -1[456]\\.\\d%")
        .contains("spaced by time; a gap in the line is a date without a run")
        .contains(date(20)).contains("no run").contains("run-30");
  }

  @Test
  void fileNamesAreSafeAndKeepTheStepsOrder() {
    assertThat(HistorySite.fileName(7, "point-query_range=100")).isEqualTo("007-point-query_range_100.html");
    assertThat(HistorySite.fileName(12, "../../etc/passwd")).isEqualTo("012-.._.._etc_passwd.html");
    assertThat(SeriesSvg.ticks(0.2, 1.1)).containsExactly(0.2, 0.4, 0.6000000000000001, 0.8, 1.0);
  }

  /** A night with repeats: its step page draws each run and the interval of the night's figure. */
  @Test
  void aStepPageDrawsEachRunAndTheIntervalOfANightWithRepeats() {
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    for (int night = 0; night < 6; night++) {
      List<String> ids = new ArrayList<>();
      int repeats = night % 2 == 0 ? 1 : 3;
      for (int r = 0; r < repeats; r++) {
        String run = "night-" + night + "-" + r;
        ids.add(run);
        observations.add(new Observation(run, date(night), "s", 1000 + 10 * r + night));
      }
      runs.put(date(night), ids);
    }
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, "qps"),
        List.of());
    String page = HistorySite.pages(report, new Provenance("benchlake history", "wh", 1, "test")).entrySet().stream()
        .filter(e -> e.getKey().startsWith(HistorySite.STEPS)).findFirst().orElseThrow().getValue();
    assertThat(Pattern.compile("<circle class=\"run\"").matcher(page).results().count()).as("3 x 1 + 3 x 3 runs")
        .isEqualTo(12);
    assertThat(Pattern.compile("<line class=\"interval\"").matcher(page).results().count()).as("the 3 nights of 3 runs")
        .isEqualTo(3);
    assertThat(Pattern.compile("<circle class=\"point\"").matcher(page).results().count()).isEqualTo(6);
    assertThat(page).contains(date(1) + ", run night-1-2: ").contains("geometric mean of 3 runs, 95% interval ");
  }

  /**
   * Issue 48 item 3: a step's page charts server CPU per operation beside the metric, the level of
   * each night whose runs recorded it (the base's from the trend's baseline side), and a night
   * whose runs did not as a dashed rule that says "not measured", never a point at 0; its table
   * says the same. A step whose runs recorded none has no chart, and says it was not measured.
   */
  @Test
  void aStepPageChartsServerCpuPerOperationBesideQpsAndSaysNotMeasuredWhereItWasNot() {
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    for (int night = 0; night < 4; night++) {
      String run = "night-" + night;
      runs.put(date(night), List.of(run));
      observations.add(new Observation(run, date(night), "measured", 1000 + night));
      observations.add(new Observation(run, date(night), "unmeasured", 500 + night));
    }
    TrendReport plain = TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, "qps"),
        List.of());
    // Night 0 is the base (120 µs, every other night's baseline); night 2's runs recorded no figures.
    Map<String, TrendReport.Resources> byNight = new java.util.LinkedHashMap<>();
    byNight.put(date(1), cpu(120.0, 130.0));
    byNight.put(date(3), cpu(120.0, 90.0));
    TrendReport report = plain.withResources(Map.of("measured", byNight));
    Map<String, String> pages = HistorySite.pages(report, new Provenance("benchlake history", "wh", 1, "test"));
    String measured = pages.entrySet().stream().filter(e -> e.getKey().endsWith("-measured.html")).findFirst()
        .orElseThrow().getValue();
    String unmeasured = pages.entrySet().stream().filter(e -> e.getKey().endsWith("-unmeasured.html")).findFirst()
        .orElseThrow().getValue();

    Matcher cpuChart = Pattern.compile("<figure class=\"panel-plain\" id=\"cpu\">\\s*(<svg.*?</svg>)",
        Pattern.DOTALL).matcher(measured);
    assertThat(cpuChart.find()).as("the CPU chart beside qps").isTrue();
    String svg = cpuChart.group(1);
    // 960 x 240, plot from x 64 to 944 over nights 0..3, y 184 (86.8 µs) to 24 (133.2 µs): 90 to 130 µs padded 8 %.
    assertThat(svg).contains("<path class=\"line\" fill=\"none\" stroke=\"#2b6cb0\" stroke-width=\"1.5\" "
        + "d=\"M64.0,69.5 L357.3,35.0 M944.0,173.0\"/>");
    assertThat(Pattern.compile("<circle class=\"point\"").matcher(svg).results().count()).isEqualTo(3);
    assertThat(svg).contains("<title>" + date(0) + ": 120 µs server CPU per operation (geometric mean of its runs)"
        + "</title>", "<title>" + date(3) + ": 90 µs server CPU per operation");
    assertThat(svg).contains("<line class=\"not-measured\" x1=\"650.7\" y1=\"24.0\" x2=\"650.7\" y2=\"184.0\" "
        + "stroke=\"#a0aec0\" stroke-width=\"1\" stroke-dasharray=\"2 3\"><title>" + date(2) + ": not measured</title>"
        + "</line>", "<text class=\"not-measured\" x=\"944\" y=\"16\" font-size=\"10\" text-anchor=\"end\" "
        + "fill=\"#718096\">dashed grey: not measured</text>", "server CPU per operation (µs)");
    assertThat(Pattern.compile("<line class=\"not-measured\"").matcher(svg).results().count()).isEqualTo(1);
    assertThat(measured).contains("<td>1002/s</td><td>not measured</td>").contains("<td>120 µs</td>")
        .contains("<td>130 µs</td>").doesNotContain("<td>0 µs</td>");

    assertThat(unmeasured).doesNotContain("<figure class=\"panel-plain\" id=\"cpu\">").contains("<p class=\"note\" id=\"cpu\">Server CPU per "
        + "operation: not measured (no run of this step recorded per-operation resource figures).</p>")
        .doesNotContain("class=\"not-measured\"");
  }

  /** One night's server CPU per operation against the base: only the figure the chart reads. */
  private static TrendReport.Resources cpu(double base, double night) {
    List<dev.benchlake.analysis.report.ResourceFigure> figures = new ArrayList<>();
    for (dev.benchlake.core.raw.ResourceMetric metric : dev.benchlake.core.raw.ResourceMetric.values()) {
      boolean cpu = metric == dev.benchlake.core.raw.ResourceMetric.SERVER_CPU_US_PER_OP;
      figures.add(new dev.benchlake.analysis.report.ResourceFigure(metric,
          dev.benchlake.analysis.report.Sides.of(cpu ? base : null, cpu ? night : null), null,
          dev.benchlake.analysis.report.Range.UNBOUNDED, cpu ? null : "not measured on either side",
          cpu ? "one run a night" : null));
    }
    return new TrendReport.Resources(new dev.benchlake.analysis.report.ResourceFigures("unpaired", figures), null);
  }
}
