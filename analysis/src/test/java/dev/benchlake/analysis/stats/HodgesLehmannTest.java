package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Reference.Sample;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HodgesLehmannTest {
  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void matchesBruteForceOverAllPairs(Sample sample) {
    JsonNode expected = sample.expected().get("hodges_lehmann");
    HodgesLehmann.Result result = HodgesLehmann.estimate(sample.sortedCandidate(), sample.sortedBaseline());
    assertThat(result.shift()).isEqualTo(expected.get("shift").asDouble());
    if (expected.get("ci_low").isNull()) {
      assertThat(result.ci95()).isEqualTo(Interval.UNBOUNDED);
    } else {
      assertThat(result.ci95()).isEqualTo(new Interval(expected.get("ci_low").asDouble(), expected.get("ci_high").asDouble()));
    }
  }
}
