package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Families decided by {@code make_reference.py} ({@code ratio_decisions}) with the documented rule
 * written out in Python on scipy's tests and intervals, and Holm/BH from the reference adjusters.
 */
class RatioDecisionsTest {
  static List<JsonNode> families() {
    return Reference.nodes("ratio_decisions");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void decidesAsTheReference(JsonNode family) {
    List<LogRatio> steps = new ArrayList<>();
    for (JsonNode s : family.get("steps")) {
      steps.add(LogRatio.of(Reference.doubles(s.get("baseline")), Reference.doubles(s.get("candidate"))));
    }
    Correction correction = Correction.valueOf(family.get("correction").asText().toUpperCase(Locale.ROOT));
    List<RatioDecisions.Decision> decisions = RatioDecisions.decide(steps, family.get("alpha").asDouble(),
        family.get("margin").asDouble(), correction, family.get("lower_is_better").asBoolean());
    assertThat(decisions).hasSameSizeAs(steps);
    for (int i = 0; i < decisions.size(); i++) {
      RatioDecisions.Decision d = decisions.get(i);
      JsonNode e = family.get("decisions").get(i);
      assertThat(d.verdict().jsonName()).as("step %d", i).isEqualTo(e.get("verdict").asText());
      assertThat(d.pDifferenceAdjusted()).isCloseTo(e.get("p_difference_adjusted").asDouble(), within(1e-8));
      assertThat(d.pEquivalenceAdjusted()).isCloseTo(e.get("p_equivalence_adjusted").asDouble(), within(1e-8));
      assertThat(d.realButNegligible()).as("step %d negligible", i).isEqualTo(e.get("real_but_negligible").asBoolean());
      assertThat(d.beyondMargin()).as("step %d beyond", i).isEqualTo(e.get("beyond_margin").asBoolean());
      assertThat(d.runsNeededPerGroup()).as("step %d runs", i).isEqualTo(e.get("runs_needed_per_group").asInt());
    }
  }

  @Test
  void theReferenceFamiliesUseEveryVerdictAndFlag() {
    // Guards the fixture: a reference where every step is inconclusive would prove little.
    List<String> verdicts = new ArrayList<>();
    boolean negligible = false;
    boolean beyond = false;
    for (JsonNode family : families()) {
      for (JsonNode d : family.get("decisions")) {
        verdicts.add(d.get("verdict").asText());
        negligible |= d.get("real_but_negligible").asBoolean();
        beyond |= d.get("beyond_margin").asBoolean();
      }
    }
    assertThat(verdicts).contains("faster", "slower", "equivalent", "inconclusive");
    assertThat(negligible).isTrue();
    assertThat(beyond).isTrue();
  }

  @Test
  void directionFollowsTheMetric() {
    LogRatio lower = LogRatio.of(new double[] {100, 102, 98, 101}, new double[] {80, 81, 79, 80.5});
    assertThat(RatioDecisions.decide(List.of(lower), 0.05, 0.05, Correction.HOLM, true).get(0).verdict()).isEqualTo(Verdict.FASTER);
    assertThat(RatioDecisions.decide(List.of(lower), 0.05, 0.05, Correction.HOLM, false).get(0).verdict()).isEqualTo(Verdict.SLOWER);
  }

  @Test
  void undefinedStepsAreInconclusiveAndLeaveTheFamily() {
    LogRatio same = LogRatio.of(new double[] {2, 2}, new double[] {2, 2});
    LogRatio clear = LogRatio.of(new double[] {100, 102, 98, 101}, new double[] {80, 81, 79, 80.5});
    List<RatioDecisions.Decision> d = RatioDecisions.decide(List.of(same, clear), 0.05, 0.05, Correction.HOLM, true);
    assertThat(d.get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(d.get(0).pDifferenceAdjusted()).isNaN();
    assertThat(d.get(1).pDifferenceAdjusted()).isEqualTo(clear.pDifference());
  }

  @Test
  void aMarginOfZeroNeverGivesEquivalenceAndNoRunCountMeetsIt() {
    LogRatio same = LogRatio.of(new double[] {100, 100.1, 99.9, 100}, new double[] {100, 100.1, 99.9, 100.05});
    assertThat(same.pEquivalence(0)).isGreaterThanOrEqualTo(0.5);
    RatioDecisions.Decision d = RatioDecisions.decide(List.of(same), 0.05, 0, Correction.HOLM, true).get(0);
    assertThat(d.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(d.runsNeededPerGroup()).isEqualTo(RunsNeeded.MAX_RUNS);
    assertThat(RatioDecisions.decide(List.of(same), 0.05, 0.01, Correction.HOLM, true).get(0).verdict())
        .isEqualTo(Verdict.EQUIVALENT);
  }
}
