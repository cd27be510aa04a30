package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class RunCountGuidanceTest {
  @Test
  void smallestPossiblePMatchesScipyOnFullySeparatedRuns() {
    for (JsonNode c : Reference.root().get("run_counts").get("smallest_p")) {
      assertClose(c.toString(), MannWhitneyU.smallestP(c.get("n1").asInt(), c.get("n2").asInt()),
          c.get("smallest_p").asDouble(), 1e-9);
    }
  }

  @Test
  void runsNeededMatchesScipy() {
    for (JsonNode c : Reference.root().get("run_counts").get("runs_needed")) {
      assertThat(RunCountGuidance.runsPerGroupNeeded(c.get("level").asDouble())).as(c.toString())
          .isEqualTo(c.get("runs").asInt());
    }
  }

  @Test
  void threeVersusThreeRunsCannotReachFivePercent() {
    assertThat(RunCountGuidance.enough(3, 3, 0.05)).isFalse();
    assertThat(RunCountGuidance.enough(4, 4, 0.05)).isTrue();
    assertThat(RunCountGuidance.enough(0, 4, 0.05)).isFalse();
  }
}
