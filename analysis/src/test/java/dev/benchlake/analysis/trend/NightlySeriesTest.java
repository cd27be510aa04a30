package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.testing.BrowserPage;
import dev.benchlake.core.Json;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 29's proof on a seeded synthetic nightly series: 120 dates × 20 steps, one run a night
 * (noise 2 % on the log scale): 8 steps with a 15 % shift at a known date, 4 with a slow drift
 * (+0.15 % a night, 20 % in all) and 8 of pure noise, through {@link TrendAnalysis} as
 * {@code trend --by date} runs it. Change points are found at the right dates within ±1 day, the
 * noise steps give none, and {@link ChangePointGate} fires on a bad shift in the newest window and
 * not otherwise.
 */
class NightlySeriesTest {
  private static final int DATES = 120;
  private static final LocalDate FIRST = LocalDate.of(2026, 8, 1);
  /** The nights the shift steps' level changes at (their index from the first), and by how much. */
  private static final int[] SHIFT_AT = {20, 35, 50, 64, 77, 90, 100, 110};
  private static final double SHIFT = 0.85;
  private static final double NOISE = 0.02;

  private static String date(int night) {
    return FIRST.plusDays(night).toString();
  }

  /**
   * The series; {@code lastShift}, when positive, adds a step whose level changes by that factor at
   * night {@code lastShiftAt}.
   */
  private static TrendReport nightly(long seed, double lastShift, int lastShiftAt) {
    return nightly(seed, lastShift, lastShiftAt, "qps");
  }

  private static TrendReport nightly(long seed, double lastShift, int lastShiftAt, String metric) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    for (int night = 0; night < DATES; night++) {
      String run = "night-" + night;
      runs.put(date(night), List.of(run));
      for (int s = 0; s < SHIFT_AT.length; s++) {
        observations.add(point(run, night, "shift-" + s, 1000 * (night >= SHIFT_AT[s] ? SHIFT : 1), random));
      }
      for (int s = 0; s < 4; s++) {
        observations.add(point(run, night, "drift-" + s, 1000 * Math.pow(1.0015, night), random));
      }
      for (int s = 0; s < 8; s++) {
        observations.add(point(run, night, "noise-" + s, 1000, random));
      }
      if (lastShift > 0) {
        observations.add(point(run, night, "newest", 1000 * (night >= lastShiftAt ? lastShift : 1), random));
      }
    }
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, metric), List.of());
  }

  private static Observation point(String run, int night, String step, double level, SplittableRandom random) {
    return new Observation(run, date(night), step, level * Math.exp(NOISE * gaussian(random)));
  }

  /** Box–Muller: SplittableRandom has no nextGaussian of its own before Java 17's RandomGenerator default. */
  private static double gaussian(SplittableRandom random) {
    return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
  }

  private static StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void shiftsAreFoundAtTheirDatesWithinADayAndNoiseGivesNone() {
    for (long seed : new long[] {29, 2029}) {
      TrendReport report = nightly(seed, 0, 0);
      assertThat(report.versions()).hasSize(DATES);
      for (int s = 0; s < SHIFT_AT.length; s++) {
        List<ChangePoint> found = step(report, "shift-" + s).changePoints();
        LocalDate expected = FIRST.plusDays(SHIFT_AT[s]);
        assertThat(found).as("seed %d, shift-%d at %s", seed, s, expected).anySatisfy(c -> {
          assertThat(Math.abs(LocalDate.parse(c.at()).toEpochDay() - expected.toEpochDay())).isLessThanOrEqualTo(1);
          assertThat(c.ratio()).isBetween(0.82, 0.88);
        });
        // The shift, and nothing else of its size.
        assertThat(found.stream().filter(c -> Math.abs(Math.log(c.ratio())) > 0.05)).as("seed %d, shift-%d", seed, s)
            .hasSize(1);
      }
      for (int s = 0; s < 8; s++) {
        assertThat(step(report, "noise-" + s).changePoints()).as("seed %d, noise-%d", seed, s).isEmpty();
      }
      // Nothing of this series starts at the newest night: the gate stays quiet, whatever its window.
      assertThat(ChangePointGate.failures(report, 1)).as("seed %d", seed).isEmpty();
      assertThat(ChangePointGate.failures(report, 3)).as("seed %d", seed).isEmpty();
    }
  }

  @Test
  void theGateFiresOnABadShiftInTheNewestWindowOnly() {
    // A 15 % drop of throughput at the third night from the end.
    TrendReport drop = nightly(29, SHIFT, DATES - 3);
    assertThat(ChangePointGate.failures(drop, 3)).singleElement().satisfies(f -> {
      assertThat(f.step()).isEqualTo("newest");
      assertThat(f.changePoint().at()).isEqualTo(date(DATES - 3));
      assertThat(f.line(drop)).startsWith("change point: step newest at date " + date(DATES - 3) + ", qps ")
          .contains("(ratio 0.8").contains("beyond the ±5% margin; higher is better");
    });
    assertThat(ChangePointGate.failures(drop, 1)).as("started before the newest night").isEmpty();
    // An improvement never fails it; a drop within the margin neither.
    assertThat(ChangePointGate.failures(nightly(29, 1 / SHIFT, DATES - 3), 3)).isEmpty();
    TrendReport small = nightly(29, 0.97, DATES - 3);
    assertThat(ChangePointGate.failures(small, 3)).isEmpty();
    // A latency is bad when it goes up: the metric's direction, as compare's --fail-on.
    assertThat(ChangePointGate.failures(nightly(29, 1 / SHIFT, DATES - 3, "p99_s"), 3)).singleElement()
        .satisfies(f -> assertThat(f.changePoint().ratio()).isGreaterThan(1.1));
    assertThat(ChangePointGate.failures(nightly(29, SHIFT, DATES - 3, "p99_s"), 3)).isEmpty();
  }

  /**
   * Issue 29.1: trend.html draws each step of a nightly series along time: one line chart per step,
   * its points spaced by date, the line broken at the missing nights, the change point's rule with
   * its levels and ratio, and the axis saying how the points are placed; versions get no series.
   */
  @Test
  void theHtmlDrawsEveryStepAlongTimeWithItsChangePointAndTheMissingNights(@TempDir Path dir) throws Exception {
    SplittableRandom random = new SplittableRandom(3);
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    for (int night = 0; night < 40; night++) {
      if (night == 12 || night == 13) {
        continue;
      }
      String run = "night-" + night;
      runs.put(date(night), List.of(run));
      observations.add(point(run, night, "shift", 1000 * (night >= 25 ? SHIFT : 1), random));
      observations.add(point(run, night, "noise", 1000, random));
    }
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, "qps"),
        List.of());
    assertThat(step(report, "shift").changePoints()).extracting(ChangePoint::at).containsExactly(date(25));
    assertThat(report.gaps()).containsExactly(date(12), date(13));
    TrendFiles.write(report, new Provenance("benchlake trend --by date", "wh", 1, "test"), dir);

    JsonNode json = Json.mapper().readTree(dir.resolve(TrendFiles.JSON).toFile());
    assertThat(json.get("x_axis").get("kind").asText()).isEqualTo("time");
    assertThat(json.get("x_axis").get("at").get(date(0)).asText()).isEqualTo(date(0) + "T00:00:00Z");

    BrowserPage page = BrowserPage.render(dir.resolve(TrendFiles.HTML), "trend-nightly-series", 1366, 2400);
    int shift = report.steps().indexOf(step(report, "shift"));
    int noise = report.steps().indexOf(step(report, "noise"));
    // 38 points, a line in 2 pieces, and the change point's levels, rule and label.
    assertThat(page.charts().get("series-" + shift + "-chart")).isGreaterThanOrEqualTo(38 + 2 + 2 + 1 + 1);
    assertThat(page.charts().get("series-" + noise + "-chart")).isGreaterThanOrEqualTo(38 + 2);
    assertThat(chartTag(page, "series-" + shift + "-chart")).contains("data-change-points=\"1\"")
        .contains("data-segments=\"2\"");
    assertThat(chartTag(page, "series-" + noise + "-chart")).contains("data-change-points=\"0\"");
    assertThat(page.charts().keySet()).as("a series has no grouped bars per date").allMatch(id -> id.startsWith("series-"));
    assertThat(page.markup()).contains("spaced by time; a gap in the line is a date without a run").containsPattern("▼ −1[456]\\.\\d%");

    TrendReport versions = TrendAnalysis.analyse(List.of(new Observation("a", "14", "s", 1), new Observation("b", "17",
        "s", 1.1)), Map.of("14", List.of("a"), "17", List.of("b")), TrendRequest.of("db_major", "14", "qps"), List.of());
    assertThat(SeriesAxis.of(versions)).as("versions keep their bars").isNull();
    assertThat(TrendHtml.write(versions, new Provenance("benchlake trend", "wh", 1, "test")))
        .doesNotContain("data-chart=\"series\"");
  }

  /**
   * Nights with repeats: each run is drawn, and the night's figure carries the 95 % interval of its
   * geometric mean (scipy: {@code exp(ttest_1samp(log x, 0).confidence_interval(0.95))} of night 4's
   * 3 runs, 1000, 1100, 1050: [932.06, 1181.08]); a night of one run has no interval.
   */
  @Test
  void aNightWithRepeatsShowsEachRunAndTheIntervalOfItsFigure(@TempDir Path dir) throws Exception {
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    for (int night = 0; night < 8; night++) {
      List<String> ids = new ArrayList<>();
      double[] values = night < 4 ? new double[] {1000 + night} : new double[] {1000, 1100, 1050};
      for (int r = 0; r < values.length; r++) {
        String run = "night-" + night + "-" + r;
        ids.add(run);
        observations.add(new Observation(run, date(night), "s", values[r]));
      }
      runs.put(date(night), ids);
    }
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, "qps"),
        List.of());
    TrendReport.VersionFigure single = step(report, "s").at(date(0));
    assertThat(single.valueCi95()).as("one run: no interval").isNull();
    assertThat(single.runValues()).containsExactly(1000.0);
    TrendReport.VersionFigure repeats = step(report, "s").at(date(4));
    assertThat(repeats.runIds()).containsExactly("night-4-0", "night-4-1", "night-4-2");
    assertThat(repeats.runValues()).containsExactly(1000.0, 1100.0, 1050.0);
    assertThat(repeats.valueCi95().low()).isCloseTo(932.06, org.assertj.core.api.Assertions.within(0.01));
    assertThat(repeats.valueCi95().high()).isCloseTo(1181.08, org.assertj.core.api.Assertions.within(0.01));

    TrendFiles.write(report, new Provenance("benchlake trend --by date", "wh", 1, "test"), dir);
    JsonNode json = Json.mapper().readTree(dir.resolve(TrendFiles.JSON).toFile());
    JsonNode s = json.get("steps").get(0);
    assertThat(s.get("values_ci95").get(date(0)).isNull()).isTrue();
    assertThat(s.get("values_ci95").get(date(4)).get(0).asDouble()).isEqualTo(932.059);
    assertThat(s.get("run_values").get(date(4)).get("night-4-1").asDouble()).isEqualTo(1100);

    BrowserPage page = BrowserPage.render(dir.resolve(TrendFiles.HTML), "trend-nightly-repeats", 1366, 1200);
    // 4 + 4 x 3 runs, 4 intervals, 8 figures on the line.
    assertThat(chartTag(page, "series-0-chart")).contains("data-run-points=\"16\"").contains("data-intervals=\"4\"");
    assertThat(page.charts().get("series-0-chart")).isGreaterThanOrEqualTo(16 + 4 + 8);
    assertThat(page.markup()).contains("grey: each run");
  }

  private static String chartTag(BrowserPage page, String id) {
    Matcher tag = Pattern.compile("<div [^>]*id=\"" + id + "\"[^>]*>").matcher(page.markup());
    assertThat(tag.find()).as(id).isTrue();
    return tag.group();
  }
}
