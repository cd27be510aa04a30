package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Reference.Sample;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MannWhitneyUTest {
  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void matchesScipy(Sample sample) {
    JsonNode expected = sample.expected().get("mann_whitney");
    MannWhitneyU.Result result = MannWhitneyU.test(sample.candidateAsDoubles(), sample.baselineAsDoubles());
    assertThat(result.u()).isEqualTo(expected.get("u").asDouble());
    assertThat(result.method().name().toLowerCase(Locale.ROOT)).isEqualTo(expected.get("method").asText());
    assertClose("p", result.p(), expected.get("p").asDouble(), 1e-9);
    assertThat(MidRanks.tieTerm(sample.sortedCandidate(), sample.sortedBaseline()))
        .isEqualTo(expected.get("tie_term").asDouble());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void normalApproximationFromSufficientStatisticsMatchesScipyForLargeSamples(Sample sample) {
    JsonNode expected = sample.expected().get("mann_whitney");
    // Samples scipy computed exactly have no normal-approximation reference: skipped, and shown as such.
    assumeTrue(expected.get("method").asText().equals("normal"), "scipy used the exact method for this sample");
    MannWhitneyU.Result result = MannWhitneyU.normal(sample.candidate().length, sample.baseline().length,
        expected.get("u").asDouble(), expected.get("tie_term").asDouble());
    assertClose("p", result.p(), expected.get("p").asDouble(), 1e-9);
  }

  @Test
  void staysDefinedAtMillionsOfValuesPerSide() {
    // commons-math3 3.6.1 returns NaN here (its n1*n2 overflows an int).
    long n = 2_000_000;
    MannWhitneyU.Result result = MannWhitneyU.normal(n, n, n * (double) n / 2 + 1e10, 0);
    assertThat(result.p()).isBetween(0.0, 1.0);
    assertThat(result.p()).isGreaterThan(0.0).isLessThan(1e-10);
  }

  @Test
  void everyValueTiedGivesPOne() {
    assertThat(MannWhitneyU.normal(1000, 1000, 500_000, 2000.0 * 2000 * 2000 - 2000).p()).isEqualTo(1.0);
  }

  @Test
  void rejectsAnEmptySample() {
    assertThatThrownBy(() -> MannWhitneyU.test(new double[0], new double[] {1}))
        .hasMessageContaining("at least one value per sample");
  }
}
