package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.InputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** E-divisive means against numpy ({@code make_edivisive_reference.py}) and by simulation. */
class EDivisiveTest {
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
        assertThat(EDivisive.at(0.05).profile(series)[at]).as(c.get("name").asText() + " at " + at + ", running sums")
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
      List<EDivisive.ChangePoint> found = EDivisive.at(0.05).changePoints(series, everyPoint);
      assertThat(found).as(name).isNotEmpty();
      // The first split taken is the best one over the whole series.
      assertThat(found).extracting(EDivisive.ChangePoint::index).contains(c.get("best").asInt());
    }
  }

  @Test
  void pureNoiseGivesNoChangePointInAtLeast95PercentOf200Series() {
    SplittableRandom random = new SplittableRandom(42);
    EDivisive method = EDivisive.at(0.05);
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
    double[] series = {0, 0.01, -0.01, 0.02, -0.2, -0.21, -0.19, -0.2};
    int[] blocks = {0, 2, 4, 6};
    assertThat(EDivisive.at(0.05).changePoints(series, blocks)).isEqualTo(EDivisive.at(0.05).changePoints(series, blocks))
        .singleElement().satisfies(c -> assertThat(c.index()).isEqualTo(4));
    assertThatThrownBy(() -> EDivisive.at(0.05).changePoints(series, new int[] {1, 3}))
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
