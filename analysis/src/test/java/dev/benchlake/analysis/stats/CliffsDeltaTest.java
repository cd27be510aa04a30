package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Reference.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CliffsDeltaTest {
  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void fromUEqualsTheMeanSignOfAllPairs(Sample sample) {
    JsonNode expected = sample.expected().get("cliffs_delta");
    double u = MannWhitneyU.test(sample.candidateAsDoubles(), sample.baselineAsDoubles()).u();
    double delta = CliffsDelta.fromU(u, sample.candidate().length, sample.baseline().length);
    assertClose("delta", delta, expected.get("delta").asDouble(), 1e-12);
    assertThat(CliffsDelta.magnitude(delta).label()).isEqualTo(expected.get("magnitude").asText());
  }

  @Test
  void magnitudeThresholdsOfRomano() {
    assertThat(CliffsDelta.magnitude(0.146)).isEqualTo(CliffsDelta.Magnitude.NEGLIGIBLE);
    assertThat(CliffsDelta.magnitude(-0.147)).isEqualTo(CliffsDelta.Magnitude.SMALL);
    assertThat(CliffsDelta.magnitude(0.33)).isEqualTo(CliffsDelta.Magnitude.MEDIUM);
    assertThat(CliffsDelta.magnitude(-0.474)).isEqualTo(CliffsDelta.Magnitude.LARGE);
  }
}
