package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.benchlake.analysis.stats.StatisticsSettings.DEFAULTS;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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

  /** Families of paired steps ({@code paired_ratio_decisions}): the same rule on {@code ttest_rel}'s figures. */
  static List<JsonNode> pairedFamilies() {
    return Reference.nodes("paired_ratio_decisions");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void decidesAsTheReference(JsonNode family) {
    List<LogRatio> steps = new ArrayList<>();
    for (JsonNode s : family.get("steps")) {
      steps.add(LogRatio.of(Reference.doubles(s.get("baseline")), Reference.doubles(s.get("candidate"))));
    }
    assertDecidedAsTheReference(family, steps);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairedFamilies")
  void decidesPairsAsTheReference(JsonNode family) {
    List<PairedLogRatio> steps = new ArrayList<>();
    for (JsonNode s : family.get("steps")) {
      steps.add(PairedLogRatio.of(Reference.doubles(s.get("baseline")), Reference.doubles(s.get("candidate"))));
    }
    assertDecidedAsTheReference(family, steps);
  }

  private static void assertDecidedAsTheReference(JsonNode family, List<? extends RatioEffect> steps) {
    Correction correction = Correction.valueOf(family.get("correction").asText().toUpperCase(Locale.ROOT));
    StatisticsSettings settings = new StatisticsSettings(family.get("alpha").asDouble(), family.get("margin").asDouble(),
        correction);
    List<RatioDecisions.Decision> decisions = RatioDecisions.decide(steps, settings,
        family.get("lower_is_better").asBoolean());
    assertThat(decisions).hasSameSizeAs(steps);
    for (int i = 0; i < decisions.size(); i++) {
      RatioDecisions.Decision d = decisions.get(i);
      JsonNode e = family.get("decisions").get(i);
      assertThat(d.verdict().jsonName()).as("step %d", i).isEqualTo(e.get("verdict").asText());
      assertThat(d.pDifferenceAdjusted()).isCloseTo(e.get("p_difference_adjusted").asDouble(), within(1e-8));
      assertThat(d.pEquivalenceAdjusted()).isCloseTo(e.get("p_equivalence_adjusted").asDouble(), within(1e-8));
      assertThat(d.realButNegligible()).as("step %d negligible", i).isEqualTo(e.get("real_but_negligible").asBoolean());
      assertThat(d.beyondMargin()).as("step %d beyond", i).isEqualTo(e.get("beyond_margin").asBoolean());
      assertThat(d.runsNeeded() == null ? 0 : d.runsNeeded().runsPerGroup()).as("step %d runs", i)
          .isEqualTo(e.get("runs_needed_per_group").asInt());
      assertThat(d.runsNeeded() == null ? null : d.runsNeeded().basis().name().toLowerCase(Locale.ROOT))
          .as("step %d basis", i).isEqualTo(e.get("runs_needed_basis").isNull() ? null : e.get("runs_needed_basis").asText());
      assertThat(d.uncorrected().jsonName()).as("step %d uncorrected", i).isEqualTo(e.get("uncorrected").asText());
      assertThat(d.family()).isEqualTo(e.get("family").asInt());
      if (d.runsNeeded() != null && d.runsNeeded().runs() != null) {
        assertThat(d.runsNeeded().runs()).as("more than the runs present").isGreaterThan(steps.get(i).replicates());
      }
    }
  }

  static List<String> referenceSets() {
    return List.of("ratio_decisions", "paired_ratio_decisions");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("referenceSets")
  void theReferenceFamiliesUseEveryVerdictAndFlag(String field) {
    // Guards the fixture: a reference where every step is inconclusive would prove little.
    List<JsonNode> families = Reference.nodes(field);
    List<String> verdicts = new ArrayList<>();
    boolean negligible = false;
    boolean beyond = false;
    for (JsonNode family : families) {
      for (JsonNode d : family.get("decisions")) {
        verdicts.add(d.get("verdict").asText());
        negligible |= d.get("real_but_negligible").asBoolean();
        beyond |= d.get("beyond_margin").asBoolean();
      }
    }
    assertThat(verdicts).contains("faster", "slower", "equivalent", "inconclusive");
    List<String> bases = new ArrayList<>();
    boolean heldBack = false;
    for (JsonNode family : families) {
      for (JsonNode d : family.get("decisions")) {
        bases.add(d.get("runs_needed_basis").asText());
        heldBack |= d.get("verdict").asText().equals("inconclusive") && !d.get("uncorrected").asText().equals("inconclusive");
      }
    }
    assertThat(bases).as("a plan at the margin, and one at the observed θ").contains("margin", "observed_effect");
    assertThat(heldBack).as("a step the correction holds back").isTrue();
    assertThat(negligible).isTrue();
    assertThat(beyond).isTrue();
  }

  @Test
  void directionFollowsTheMetric() {
    LogRatio lower = LogRatio.of(new double[] {100, 102, 98, 101}, new double[] {80, 81, 79, 80.5});
    assertThat(RatioDecisions.decide(List.of(lower), DEFAULTS, true).get(0).verdict()).isEqualTo(Verdict.FASTER);
    assertThat(RatioDecisions.decide(List.of(lower), DEFAULTS, false).get(0).verdict()).isEqualTo(Verdict.SLOWER);
  }

  @Test
  void undefinedStepsAreInconclusiveAndLeaveTheFamily() {
    LogRatio same = LogRatio.of(new double[] {2, 2}, new double[] {2, 2});
    LogRatio clear = LogRatio.of(new double[] {100, 102, 98, 101}, new double[] {80, 81, 79, 80.5});
    List<RatioDecisions.Decision> d = RatioDecisions.decide(List.of(same, clear), DEFAULTS, true);
    assertThat(d.get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(d.get(0).pDifferenceAdjusted()).isNaN();
    assertThat(d.get(1).pDifferenceAdjusted()).isEqualTo(clear.pDifference());
  }

  @Test
  void aMarginOfZeroNeverGivesEquivalenceSoTheSettingsRefuseIt() {
    LogRatio same = LogRatio.of(new double[] {100, 100.1, 99.9, 100}, new double[] {100, 100.1, 99.9, 100.05});
    assertThat(same.pEquivalence(0)).isGreaterThanOrEqualTo(0.5);
    assertThat(RunsNeeded.toShowEquivalence(SampleDesign.TWO_GROUPS, same.betweenRunSdLog(), 0, 0.05, 0.8)).isEqualTo(RunsNeeded.MAX_RUNS);
    assertThatThrownBy(() -> DEFAULTS.withMargin(0)).hasMessageStartingWith("--margin 0 is not in (0, 1)");
    assertThat(RatioDecisions.decide(List.of(same), DEFAULTS.withMargin(0.01), true).get(0).verdict())
        .isEqualTo(Verdict.EQUIVALENT);
  }
}
