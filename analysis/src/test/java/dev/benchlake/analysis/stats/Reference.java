package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The values computed independently with numpy/scipy by
 * {@code analysis/src/test/python/make_reference.py} (see there for how and why).
 */
final class Reference {
  private static final JsonNode ROOT = load();

  private Reference() {}

  static JsonNode root() {
    return ROOT;
  }

  /** One two-sample case: candidate and baseline values and the expected figures. */
  record Sample(String name, long[] candidate, long[] baseline, JsonNode expected) {
    long[] sortedCandidate() {
      return java.util.Arrays.stream(candidate).sorted().toArray();
    }

    long[] sortedBaseline() {
      return java.util.Arrays.stream(baseline).sorted().toArray();
    }

    double[] candidateAsDoubles() {
      return java.util.Arrays.stream(candidate).asDoubleStream().toArray();
    }

    double[] baselineAsDoubles() {
      return java.util.Arrays.stream(baseline).asDoubleStream().toArray();
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Sample> samples() {
    List<Sample> samples = new ArrayList<>();
    for (JsonNode node : ROOT.get("samples")) {
      samples.add(new Sample(node.get("name").asText(), longs(node.get("candidate")), longs(node.get("baseline")), node));
    }
    return samples;
  }

  /** The elements of a top-level array of the reference. */
  static List<JsonNode> nodes(String field) {
    List<JsonNode> nodes = new ArrayList<>();
    ROOT.get(field).forEach(nodes::add);
    return nodes;
  }

  static long[] longs(JsonNode array) {
    long[] values = new long[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asLong();
    }
    return values;
  }

  static double[] doubles(JsonNode array) {
    double[] values = new double[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asDouble();
    }
    return values;
  }

  /** The number, or NaN for JSON null (what scipy leaves undefined). */
  static double number(JsonNode node) {
    return node == null || node.isNull() ? Double.NaN : node.asDouble();
  }

  /**
   * A {@link RatioEffect}'s θ, intervals (95 %, 90 %), difference p and TOST p at every margin of
   * the case, against the reference's: commons-math's t quantiles and tails agree with scipy's to
   * about 1e-9 relatively, less at df &lt; 2.
   */
  static void assertEffectMatches(RatioEffect r, JsonNode c) {
    double ratio = c.get("ratio").asDouble();
    assertThat(r.ratio()).isCloseTo(ratio, within(1e-12 * ratio));
    assertInterval(r.interval(0.95), c.get("ci95"));
    assertInterval(r.interval(0.90), c.get("ci90"));
    assertThat(r.pDifference()).isCloseTo(c.get("p_difference").asDouble(), within(1e-8));
    c.get("p_equivalence").fields().forEachRemaining(e ->
        assertThat(r.pEquivalence(Double.parseDouble(e.getKey()))).as("TOST at %s", e.getKey())
            .isCloseTo(e.getValue().asDouble(), within(1e-8)));
    assertThat(r.betweenRunSdLog()).isCloseTo(c.get("between_run_sd_log").asDouble(), within(1e-12));
  }

  /** An interval against a reference {@code [low, high]}, each to 1e-8 relatively. */
  static void assertInterval(Interval actual, JsonNode expected) {
    double lo = expected.get(0).asDouble();
    double hi = expected.get(1).asDouble();
    assertThat(actual.low()).isCloseTo(lo, within(1e-8 * lo));
    assertThat(actual.high()).isCloseTo(hi, within(1e-8 * hi));
  }

  private static JsonNode load() {
    try (InputStream in = Reference.class.getResourceAsStream("reference.json")) {
      if (in == null) {
        throw new IllegalStateException("reference.json is missing: run analysis/src/test/python/make_reference.py");
      }
      return Json.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
