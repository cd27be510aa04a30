package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.core.Json;
import java.io.InputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** E-divisive means against numpy ({@code make_edivisive_reference.py}) and by simulation. */
class EDivisiveTest {
  /** trend's default level: the noise proof holds for what trend runs, and fails if that is raised. */
  private static final double CHANGE_POINT_ALPHA = TrendRequest.DEFAULT_CHANGE_POINT_ALPHA;

  @Test
  void theStatisticEqualsNumpysAtEverySplit() throws Exception {
    JsonNode root;
    try (InputStream in = EDivisiveTest.class.getResourceAsStream("edivisive.json")) {
      root = Json.mapper().readTree(in);
    }
    assertThat(root.get("cases")).hasSizeGreaterThanOrEqualTo(5);
    for (JsonNode c : root.get("cases")) {
      double[] series = doubles(c.get("series"));
      for (int k = 0; k < c.get("splits").size(); k++) {
        int at = c.get("splits").get(k).asInt();
        double expected = c.get("q").get(k).asDouble();
        assertThat(EDivisive.statistic(series, 0, at, series.length)).as(c.get("name").asText() + " at " + at)
            .isCloseTo(expected, within(1e-12 * Math.max(1, Math.abs(expected))));
        // The search's running sums give the same Q.
        assertThat(EDivisive.at(CHANGE_POINT_ALPHA).profile(series)[at]).as(c.get("name").asText() + " at " + at + ", running sums")
            .isCloseTo(expected, within(1e-10 * Math.max(1, Math.abs(expected))));
      }
    }
  }

  @Test
  void theSearchsRunningSumsFindNumpysBestSplit() throws Exception {
    JsonNode root;
    try (InputStream in = EDivisiveTest.class.getResourceAsStream("edivisive.json")) {
      root = Json.mapper().readTree(in);
    }
    for (String name : List.of("drop_15pct_at_9", "ramp")) {
      JsonNode c = java.util.stream.StreamSupport.stream(root.get("cases").spliterator(), false)
          .filter(x -> x.get("name").asText().equals(name)).findFirst().orElseThrow();
      double[] series = doubles(c.get("series"));
      int[] everyPoint = IntStream.range(0, series.length).toArray();
      List<EDivisive.ChangePoint> found = EDivisive.at(CHANGE_POINT_ALPHA).changePoints(series, everyPoint);
      assertThat(found).as(name).isNotEmpty();
      // The first split taken is the best one over the whole series.
      assertThat(found).extracting(EDivisive.ChangePoint::index).contains(c.get("best").asInt());
    }
  }

  @Test
  void pureNoiseGivesNoChangePointInAtLeast95PercentOf200Series() {
    SplittableRandom random = new SplittableRandom(42);
    // trend's change-point level: the rate is at most 1 %, ~2 of 200 expected, so more than 10 has a
    // binomial probability of 7e-6 for any seed (measured over 12,000 series and six seeds: 0.82 %).
    EDivisive method = EDivisive.at(CHANGE_POINT_ALPHA);
    // Eight versions of three runs each, a between-run SD of 0.1 on the log scale (the quickstart's is 0.11-0.15).
    int[] blocks = IntStream.range(0, 8).map(v -> 3 * v).toArray();
    int withChange = 0;
    for (int s = 0; s < 200; s++) {
      double[] series = new double[24];
      for (int i = 0; i < series.length; i++) {
        series[i] = Math.log(1000) + 0.1 * random.nextGaussian();
      }
      if (!method.changePoints(series, blocks).isEmpty()) {
        withChange++;
      }
    }
    System.out.println("E-divisive on noise: " + withChange + " of 200 series with a change point");
    assertThat(withChange).as("series with a false change point").isLessThanOrEqualTo(10);
  }

  @Test
  void theSameDataGiveTheSameResultAndBadArgumentsAreRefused() {
    // Twelve points: with eight, a perfect split still has p ≈ 2/C(8,4) ≈ 0.03, above 0.01.
    double[] series = {0, 0.01, -0.01, 0.02, -0.02, 0.01, -0.2, -0.21, -0.19, -0.2, -0.22, -0.18};
    int[] blocks = {0, 3, 6, 9};
    EDivisive method = EDivisive.at(CHANGE_POINT_ALPHA);
    assertThat(method.changePoints(series, blocks)).isEqualTo(EDivisive.at(CHANGE_POINT_ALPHA).changePoints(series, blocks))
        .singleElement().satisfies(c -> {
          assertThat(c.index()).isEqualTo(6);
          // 999 permutations: p reaches a tenth of the level (1/1000 when none does as well).
          assertThat(c.p()).isLessThan(CHANGE_POINT_ALPHA / 2).isGreaterThanOrEqualTo(1.0 / 1000);
        });
    assertThatThrownBy(() -> method.changePoints(series, new int[] {1, 3}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EDivisive.statistic(series, 0, 1, 8)).isInstanceOf(IllegalArgumentException.class);
  }

  private static double[] doubles(JsonNode array) {
    double[] values = new double[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asDouble();
    }
    return values;
  }
}
