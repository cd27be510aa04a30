package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.analysis.stats.Reference.Sample;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class LinearQuantileTest {
  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void equalsNumpyBitForBit(Sample sample) {
    double[] probabilities = Reference.doubles(Reference.root().get("quantile_probabilities"));
    double[] candidate = Reference.doubles(sample.expected().get("candidate_quantiles"));
    double[] baseline = Reference.doubles(sample.expected().get("baseline_quantiles"));
    for (int i = 0; i < probabilities.length; i++) {
      assertThat(LinearQuantile.of(sample.sortedCandidate(), probabilities[i]))
          .as("candidate q%s", probabilities[i]).isEqualTo(candidate[i]);
      assertThat(LinearQuantile.of(sample.sortedBaseline(), probabilities[i]))
          .as("baseline q%s", probabilities[i]).isEqualTo(baseline[i]);
    }
  }

  @Test
  void positionNamesTheTwoRanksAndTheWeight() {
    assertThat(LinearQuantile.position(4, 0.5)).isEqualTo(new LinearQuantile.Position(1, 2, 0.5));
    assertThat(LinearQuantile.position(5, 0.5)).isEqualTo(new LinearQuantile.Position(2, 3, 0.0));
    assertThat(LinearQuantile.position(1, 0.99)).isEqualTo(new LinearQuantile.Position(0, 0, 0.0));
    assertThat(LinearQuantile.position(10, 1.0)).isEqualTo(new LinearQuantile.Position(9, 9, 0.0));
  }

  @Test
  void rejectsEmptySamplesAndBadProbabilities() {
    assertThatThrownBy(() -> LinearQuantile.position(0, 0.5)).hasMessageContaining("empty sample");
    assertThatThrownBy(() -> LinearQuantile.position(3, 1.5)).hasMessageContaining("not in [0, 1]");
    assertThatThrownBy(() -> LinearQuantile.position(3, Double.NaN)).hasMessageContaining("not in [0, 1]");
  }
}
