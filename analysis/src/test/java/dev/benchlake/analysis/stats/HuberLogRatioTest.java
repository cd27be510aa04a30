package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The robust paired statistic ({@link HuberLogRatio}) against numpy and scipy
 * ({@code make_robust_reference.py}: Shamos' scale, each group's Huber root by {@code brentq},
 * Huber's sandwich with his small-sample factor, scipy's t), and what it is for: one disturbed
 * round leaves a verdict standing that least squares loses.
 */
class HuberLogRatioTest {
  private static final double MARGIN = 0.05;

  static List<JsonNode> cases() throws IOException {
    try (InputStream in = HuberLogRatioTest.class.getResourceAsStream("huber_log_ratio.json")) {
      List<JsonNode> cases = new ArrayList<>();
      Json.mapper().readTree(in).get("cases").forEach(cases::add);
      return cases;
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesNumpyAndScipy(JsonNode c) {
    double[] d = Reference.doubles(c.get("log_ratios"));
    boolean[] sets = null;
    if (!c.get("baseline_on_set_one").isNull()) {
      sets = new boolean[d.length];
      for (int i = 0; i < d.length; i++) {
        sets[i] = c.get("baseline_on_set_one").get(i).asBoolean();
      }
    }
    HuberLogRatio r = HuberLogRatio.of(d, sets);
    assertThat(r.meanLogDifference()).isCloseTo(c.get("mean_log_difference").asDouble(), within(1e-12));
    assertThat(r.setEffectLog()).isCloseTo(c.get("set_effect_log").asDouble(), within(1e-12));
    assertThat(r.scaleLog()).isCloseTo(c.get("scale_log").asDouble(), within(1e-12));
    assertThat(r.seLog()).isCloseTo(c.get("se_log").asDouble(), within(1e-12));
    assertThat((double) r.df()).isEqualTo(c.get("df").asDouble());
    Reference.assertEffectMatches(r, c);
  }

  @Test
  void theReferenceHoldsDisturbedRoundsAndCappedPairs() throws IOException {
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("name").asText()).contains("disturbed=2"));
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("baseline_on_set_one").isNull()).isTrue());
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("p_equivalence").get("0.05").asDouble()).isLessThan(1e-6));
  }

  @Test
  void withNoPairBeyondTheCapItIsLeastSquares() {
    // Four pairs, two each way: each group's Huber root of two points is their midpoint.
    double[] d = {0.01, 0.05, -0.02, 0.03};
    boolean[] sets = {true, false, true, false};
    HuberLogRatio huber = HuberLogRatio.of(d, sets);
    CrossoverLogRatio ls = CrossoverLogRatio.of(d, sets);
    assertThat(huber.meanLogDifference()).isCloseTo(ls.meanLogDifference(), within(1e-15));
    assertThat(huber.seLog()).isCloseTo(ls.seLog(), within(1e-15));
    assertThat(huber.df()).isEqualTo(ls.df());
  }

  @Test
  void oneDisturbedRoundLeavesTheVerdictThatLeastSquaresLoses() {
    // Twelve rounds of a step with per-pair SD 0.01, sides equal, the CPU set worth 3 %, then round 7 disturbed by +0.2.
    double[] noise = {0.004, -0.012, 0.009, 0.001, -0.006, 0.013, -0.003, 0.007, -0.010, 0.002, 0.011, -0.008};
    double[] d = new double[12];
    boolean[] sets = new boolean[12];
    for (int i = 0; i < 12; i++) {
      sets[i] = i % 2 == 0;
      d[i] = (sets[i] ? 0.03 : -0.03) + noise[i];
    }
    d[6] += 0.2;
    double alpha = 0.05 / 5; // Holm's first step over five
    assertThat(CrossoverLogRatio.of(d, sets).pEquivalence(MARGIN)).isGreaterThan(alpha);
    HuberLogRatio robust = HuberLogRatio.of(d, sets);
    assertThat(robust.pEquivalence(MARGIN)).isLessThan(alpha);
    assertThat(robust.ratio()).isCloseTo(1.0, within(0.01));
    assertThat(robust.setRatio()).isCloseTo(Math.exp(0.06), within(0.01));
  }

  @Test
  void noSpreadMeansNothingIsCappedSoItIsLeastSquares() {
    double[] d = {0.1, 0.1, 0.1, 0.1, 0.3};
    HuberLogRatio r = HuberLogRatio.of(d, null);
    assertThat(r.scaleLog()).isZero();
    assertThat(r.meanLogDifference()).isCloseTo(0.14, within(1e-15));
    assertThat(r.seLog()).isCloseTo(PairedLogRatio.ofLogRatios(d).seLog(), within(1e-15));
  }
}
