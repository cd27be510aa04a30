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
 * Against scipy ({@code make_reference.py}, {@code paired_log_ratios}): {@code ttest_rel(log c,
 * log b)} (checked there against {@code ttest_1samp} of the per-pair log ratios) with its
 * {@code confidence_interval(0.95 / 0.90)} exponentiated, θ as {@code scipy.stats.gmean} of the
 * per-pair ratios, and TOST as two one-sided {@code ttest_1samp} against ±ln(1+M).
 */
class PairedLogRatioTest {
  static List<JsonNode> cases() {
    return Reference.nodes("paired_log_ratios");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesScipy(JsonNode c) {
    PairedLogRatio r = PairedLogRatio.of(Reference.doubles(c.get("baseline")), Reference.doubles(c.get("candidate")));
    assertThat(r.pairs()).isEqualTo(c.get("baseline").size());
    assertThat(r.replicates()).isEqualTo(r.pairs());
    assertThat(r.meanLogDifference()).isCloseTo(c.get("mean_log_difference").asDouble(), within(1e-12));
    assertThat(r.sdLogDifference()).isCloseTo(c.get("sd_log_difference").asDouble(), within(1e-12));
    assertThat(r.seLog()).isCloseTo(c.get("se_log").asDouble(), within(1e-12));
    assertThat((double) r.df()).isEqualTo(c.get("df").asDouble());
    Reference.assertEffectMatches(r, c);
  }

  @Test
  void tostIsTheIntervalRuleWhenUncorrected() {
    for (JsonNode c : cases()) {
      PairedLogRatio r = PairedLogRatio.of(Reference.doubles(c.get("baseline")), Reference.doubles(c.get("candidate")));
      boolean inside = r.interval(0.90).within(1 / 1.05, 1.05);
      assertThat(r.pEquivalence(0.05) <= 0.05).as(c.get("name").asText()).isEqualTo(inside);
    }
  }

  @Test
  void theReferenceHoldsADecidedPairAndAnUndecidedOne() {
    // Guards the fixture: both sides of the 0.05 line, so that a sign or df slip cannot hide.
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("p_difference").asDouble()).isLessThan(0.05));
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("p_difference").asDouble()).isGreaterThan(0.05));
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("p_equivalence").get("0.05").asDouble()).isLessThan(0.05));
  }

  @Test
  void pairingCancelsWhatBothRunsOfAPairShare() {
    // Rounds that swing by ±30 % together, and a steady 10 % between the sides: the unpaired
    // analysis sees the swing, the paired one only the 10 %.
    double[] baseline = {100, 130, 70, 115, 85};
    double[] candidate = {110, 143.1, 76.9, 126.4, 93.6};
    PairedLogRatio paired = PairedLogRatio.of(baseline, candidate);
    LogRatio unpaired = LogRatio.of(baseline, candidate);
    assertThat(paired.ratio()).isCloseTo(unpaired.ratio(), within(1e-12));
    assertThat(paired.pDifference()).isLessThan(1e-6);
    assertThat(unpaired.pDifference()).isGreaterThan(0.3);
  }

  @Test
  void identicalRatiosGiveAPointIntervalAndNoTest() {
    // Each pair's two runs alike, however the pairs differ: every log ratio exactly 0.
    PairedLogRatio r = PairedLogRatio.of(new double[] {2, 4, 8}, new double[] {2, 4, 8});
    assertThat(r.ratio()).isEqualTo(1);
    assertThat(r.interval(0.95)).isEqualTo(new Interval(r.ratio(), r.ratio()));
    assertThat(r.pDifference()).isNaN();
    assertThat(r.pEquivalence(0.05)).isNaN();
  }

  @Test
  void refusesOnePairUnequalSidesAndFiguresWithoutALogarithm() {
    assertThatThrownBy(() -> PairedLogRatio.of(new double[] {1}, new double[] {2}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PairedLogRatio.of(new double[] {1, 2, 3}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 and 2");
    assertThatThrownBy(() -> PairedLogRatio.of(new double[] {0, 2}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PairedLogRatio.of(new double[] {1, 2}, new double[] {1, Double.NaN}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
