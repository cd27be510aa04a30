package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Against scipy ({@code make_reference.py}, {@code log_ratios}): {@code ttest_ind(log c, log b,
 * equal_var=False)} with its {@code confidence_interval(0.95 / 0.90)} exponentiated, and TOST as
 * two one-sided {@code ttest_ind} on logs shifted by ±ln(1+M).
 */
class LogRatioTest {
  static List<JsonNode> cases() {
    return Reference.nodes("log_ratios");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesScipy(JsonNode c) {
    LogRatio r = LogRatio.of(Reference.doubles(c.get("baseline")), Reference.doubles(c.get("candidate")));
    assertThat(r.nBaseline()).isEqualTo(c.get("baseline").size());
    assertThat(r.nCandidate()).isEqualTo(c.get("candidate").size());
    assertThat(r.meanLogDifference()).isCloseTo(c.get("mean_log_difference").asDouble(), within(1e-12));
    assertThat(r.seLog()).isCloseTo(c.get("se_log").asDouble(), within(1e-12));
    assertThat(r.df()).isCloseTo(c.get("df").asDouble(), within(1e-9));
    assertThat(r.sdLogBaseline()).isCloseTo(c.get("sd_log_baseline").asDouble(), within(1e-12));
    assertThat(r.sdLogCandidate()).isCloseTo(c.get("sd_log_candidate").asDouble(), within(1e-12));
    Reference.assertEffectMatches(r, c);
  }

  @Test
  void tostIsTheIntervalRuleWhenUncorrected() {
    // p_TOST ≤ α ⇔ the 1 − 2α interval lies inside the band: check at the case that is just inside.
    for (JsonNode c : cases()) {
      LogRatio r = LogRatio.of(Reference.doubles(c.get("baseline")), Reference.doubles(c.get("candidate")));
      boolean inside = r.interval(0.90).within(1 / 1.05, 1.05);
      assertThat(r.pEquivalence(0.05) <= 0.05).as(c.get("name").asText()).isEqualTo(inside);
    }
  }

  @Test
  void identicalRunsGiveAPointIntervalAndNoTest() {
    LogRatio r = LogRatio.of(new double[] {2, 2}, new double[] {3, 3, 3});
    assertThat(r.ratio()).isCloseTo(1.5, within(1e-12));
    assertThat(r.interval(0.95)).isEqualTo(new Interval(r.ratio(), r.ratio()));
    assertThat(r.pDifference()).isNaN();
    assertThat(r.pEquivalence(0.05)).isNaN();
    assertThat(r.betweenRunSdLog()).isZero();
  }

  @Test
  void refusesSingleRunsAndFiguresWithoutALogarithm() {
    assertThatThrownBy(() -> LogRatio.of(new double[] {1}, new double[] {1, 2})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LogRatio.of(new double[] {1, 2}, new double[] {})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LogRatio.of(new double[] {0, 2}, new double[] {1, 2})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LogRatio.of(new double[] {1, 2}, new double[] {1, Double.POSITIVE_INFINITY}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LogRatio.of(new double[] {1, 2}, new double[] {1, Double.NaN})).isInstanceOf(IllegalArgumentException.class);
  }
}
