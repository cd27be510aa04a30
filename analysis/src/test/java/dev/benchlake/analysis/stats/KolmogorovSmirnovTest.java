package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Reference.Sample;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KolmogorovSmirnovTest {
  static List<JsonNode> oneSampleCases() {
    return Reference.nodes("kolmogorov_one_sample");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void twoSampleMatchesScipy(Sample sample) {
    JsonNode expected = sample.expected().get("ks");
    KolmogorovSmirnov.Result result = KolmogorovSmirnov.test(sample.sortedCandidate(), sample.sortedBaseline());
    assertClose("D", result.d(), expected.get("d").asDouble(), 1e-14);
    assertThat(result.method().name().toLowerCase(Locale.ROOT)).isEqualTo(expected.get("method").asText());
    assertClose("p", result.p(), expected.get("p").asDouble(), 1e-9);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oneSampleCases")
  void oneSampleTailMatchesScipysKstwo(JsonNode c) {
    double expected = c.get("sf").asDouble();
    double actual = KolmogorovSmirnov.oneSampleSurvival(c.get("d").asDouble(), c.get("n").asLong());
    // Commons-math (above 1e-3) and the Smirnov tail (below) against scipy's Simard-L'Ecuyer code.
    assertClose("sf(" + c + ")", actual, expected, expected > 1e-3 ? 1e-8 : 1e-3);
  }

  @Test
  void statisticIsSymmetricAndZeroForIdenticalSamples() {
    long[] a = {1, 2, 2, 3, 9};
    long[] b = {2, 4, 5};
    assertThat(KolmogorovSmirnov.scaledStatistic(a, b)).isEqualTo(KolmogorovSmirnov.scaledStatistic(b, a));
    assertThat(KolmogorovSmirnov.test(a, a).d()).isZero();
    assertThat(KolmogorovSmirnov.test(a, a).p()).isEqualTo(1.0);
  }
}
