package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Against scipy ({@code make_reference.py}, {@code runs_needed}): the power to detect from
 * {@code scipy.stats.nct}, the TOST power by {@code scipy.integrate.quad} over the χ² law, and the
 * smallest n found by a linear search on them.
 */
class RunsNeededTest {
  static List<JsonNode> cases() {
    return Reference.nodes("runs_needed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void smallestRunCountWithEightyPercentPower(JsonNode c) {
    double sd = c.get("sd_log").asDouble();
    double margin = c.get("margin").asDouble();
    double alpha = c.get("alpha").asDouble();
    double power = c.get("power").asDouble();
    int detect = RunsNeeded.toDetect(sd, margin, alpha, power);
    int equivalence = RunsNeeded.toShowEquivalence(sd, margin, alpha, power);
    assertThat(detect).isEqualTo(c.get("to_detect").asInt());
    assertThat(equivalence).isEqualTo(c.get("to_show_equivalence").asInt());
    assertThat(RunsNeeded.powerToDetect(detect, sd, margin, alpha)).isCloseTo(c.get("power_detect_at_n").asDouble(), within(1e-7))
        .isGreaterThanOrEqualTo(power);
    assertThat(RunsNeeded.powerToShowEquivalence(equivalence, sd, margin, alpha))
        .isCloseTo(c.get("power_equivalence_at_n").asDouble(), within(1e-7)).isGreaterThanOrEqualTo(power);
    if (detect > 2) {
      assertThat(RunsNeeded.powerToDetect(detect - 1, sd, margin, alpha))
          .isCloseTo(c.get("power_detect_at_n_minus_1").asDouble(), within(1e-7)).isLessThan(power);
    }
    if (equivalence > 2) {
      assertThat(RunsNeeded.powerToShowEquivalence(equivalence - 1, sd, margin, alpha))
          .isCloseTo(c.get("power_equivalence_at_n_minus_1").asDouble(), within(1e-7)).isLessThan(power);
    }
  }

  @Test
  void theTextbookApproximationIsClose() {
    // n ≈ 2·((z_{0.975} + z_{0.8})·s/δ)² = 2·(2.8016·0.1/ln 1.05)² ≈ 66.0 with normal quantiles;
    // the exact t answer must be a little above it, never far.
    assertThat(RunsNeeded.toDetect(0.1, 0.05, 0.05, 0.8)).isBetween(66, 70);
  }

  @Test
  void noSpreadNeedsTheMinimumAndMoreSpreadNeedsMore() {
    assertThat(RunsNeeded.toDetect(0, 0.05, 0.05, 0.8)).isEqualTo(2);
    assertThat(RunsNeeded.toShowEquivalence(0, 0.05, 0.05, 0.8)).isEqualTo(2);
    assertThat(RunsNeeded.toDetect(0.2, 0.05, 0.05, 0.8)).isGreaterThan(RunsNeeded.toDetect(0.15, 0.05, 0.05, 0.8));
    assertThat(RunsNeeded.toDetect(50, 0.001, 0.05, 0.8)).isEqualTo(RunsNeeded.MAX_RUNS);
  }
}
