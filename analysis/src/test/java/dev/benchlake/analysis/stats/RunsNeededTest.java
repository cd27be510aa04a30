package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.stats.SampleDesign.PAIRED;
import static dev.benchlake.analysis.stats.SampleDesign.TWO_GROUPS;
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
 * Against scipy ({@code make_reference.py}, {@code runs_needed} for two groups and
 * {@code paired_runs_needed} for pairs): the power to detect from {@code scipy.stats.nct}, the
 * TOST power by {@code scipy.integrate.quad} over the χ² law, and the smallest n found by a
 * linear search on them.
 */
class RunsNeededTest {
  static List<JsonNode> cases() {
    List<JsonNode> cases = new ArrayList<>(Reference.nodes("runs_needed"));
    cases.addAll(Reference.nodes("paired_runs_needed"));
    return cases;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void smallestRunCountWithEightyPercentPower(JsonNode c) {
    Setting s = Setting.of(c);
    SampleDesign design = s.design();
    double sd = s.sd();
    double margin = s.margin();
    double alpha = s.alpha();
    double power = c.get("power").asDouble();
    assertSmallest(RunsNeeded.toDetect(design, sd, margin, alpha, power), c.get("to_detect").asInt(),
        n -> RunsNeeded.powerToDetect(design, n, sd, margin, alpha), power, c.get("power_detect_at_n"),
        c.get("power_detect_at_n_minus_1"));
    assertSmallest(RunsNeeded.toShowEquivalence(design, sd, margin, alpha, power), c.get("to_show_equivalence").asInt(),
        n -> RunsNeeded.powerToShowEquivalence(design, n, sd, margin, alpha), power, c.get("power_equivalence_at_n"),
        c.get("power_equivalence_at_n_minus_1"));
  }

  /** The power at a true shift other than the margin's or 0, against scipy (nct, quad over χ²). */
  @Test
  void smallestRunCountAtTheObservedEffect() {
    List<JsonNode> cases = new ArrayList<>(Reference.nodes("runs_needed_at_effect"));
    cases.addAll(Reference.nodes("paired_runs_needed_at_effect"));
    for (JsonNode c : cases) {
      Setting s = Setting.of(c);
      SampleDesign design = s.design();
      double shift = c.get("shift_log").asDouble();
      boolean equivalence = c.get("kind").asText().equals("equivalence");
      int found = equivalence ? RunsNeeded.toShowEquivalenceAt(design, s.sd(), s.margin(), shift, s.alpha(), 0.8)
          : RunsNeeded.toDetectShift(design, s.sd(), shift, s.alpha(), 0.8);
      assertSmallest(found, c.get("n").asInt(), n -> equivalence
          ? RunsNeeded.powerToShowEquivalence(design, n, s.sd(), s.margin(), s.alpha(), shift)
          : RunsNeeded.powerToDetectShift(design, n, s.sd(), shift, s.alpha()), 0.8, c.get("power_at_n"),
          c.get("power_at_n_minus_1"));
    }
  }

  /** A reference case's design (two groups unless named), one replicate's log spread, margin and level. */
  private record Setting(SampleDesign design, double sd, double margin, double alpha) {
    static Setting of(JsonNode c) {
      SampleDesign design = c.has("design") ? SampleDesign.valueOf(c.get("design").asText().toUpperCase(Locale.ROOT))
          : SampleDesign.TWO_GROUPS;
      return new Setting(design, c.get("sd_log").asDouble(), c.get("margin").asDouble(), c.get("alpha").asDouble());
    }
  }

  /** {@code found} is scipy's smallest n, its power and the one below it are scipy's, on either side of the target. */
  private static void assertSmallest(int found, int expected, java.util.function.IntToDoubleFunction power, double target,
      JsonNode powerAtN, JsonNode powerBelow) {
    assertThat(found).isEqualTo(expected);
    assertThat(power.applyAsDouble(found)).isCloseTo(powerAtN.asDouble(), within(1e-7)).isGreaterThanOrEqualTo(target);
    if (found > 2) {
      assertThat(power.applyAsDouble(found - 1)).isCloseTo(powerBelow.asDouble(), within(1e-7)).isLessThan(target);
    }
  }

  /**
   * What more runs would do is never a count at or below the runs present: the margin's plan when
   * it is more; else the plan at the observed θ; else that θ sits at the edge of the band, or that
   * the runs present already have the power.
   */
  @Test
  void theAdviceIsNeverACountAtOrBelowTheRunsPresent() {
    double sd = 0.0209;
    int atMargin = Math.min(RunsNeeded.toDetect(TWO_GROUPS, sd, 0.05, 0.05, 0.8),
        RunsNeeded.toShowEquivalence(TWO_GROUPS, sd, 0.05, 0.05, 0.8));
    assertThat(RunsNeeded.advise(TWO_GROUPS, sd, 0.03, atMargin - 1, 0.05, 0.05, 0.8))
        .isEqualTo(new RunsAdvice(RunsAdvice.Basis.MARGIN, atMargin));
    RunsAdvice observed = RunsNeeded.advise(TWO_GROUPS, sd, 0.03, atMargin, 0.05, 0.05, 0.8);
    assertThat(observed.basis()).isEqualTo(RunsAdvice.Basis.OBSERVED_EFFECT);
    assertThat(observed.runs()).isEqualTo(RunsNeeded.toShowEquivalenceAt(TWO_GROUPS, sd, 0.05, 0.03, 0.05, 0.8))
        .isGreaterThan(atMargin);
    // A shift right at the band's edge: no number of runs shows it inside, or outside.
    assertThat(RunsNeeded.advise(TWO_GROUPS, sd, Math.log1p(0.05) - 1e-6, 10, 0.05, 0.05, 0.8))
        .isEqualTo(new RunsAdvice(RunsAdvice.Basis.EDGE_OF_MARGIN, 0));
    // Beyond the band, 40 runs have the power to detect it already.
    assertThat(RunsNeeded.advise(TWO_GROUPS, sd, 0.08, 40, 0.05, 0.05, 0.8))
        .isEqualTo(new RunsAdvice(RunsAdvice.Basis.ALREADY_POWERED, 0));
    for (int present = 2; present <= 30; present += 4) {
      for (double shift : new double[] {0, 0.01, 0.03, 0.045, 0.06, 0.2}) {
        RunsAdvice advice = RunsNeeded.advise(TWO_GROUPS, sd, shift, present, 0.05, 0.05, 0.8);
        if (advice.runs() != null) {
          assertThat(advice.runs()).as("shift %s, %d runs", shift, present).isGreaterThan(present);
        }
      }
    }
  }

  @Test
  void theTextbookApproximationIsClose() {
    // n ≈ 2·((z_{0.975} + z_{0.8})·s/δ)² = 2·(2.8016·0.1/ln 1.05)² ≈ 66.0 with normal quantiles;
    // the exact t answer must be a little above it, never far.
    assertThat(RunsNeeded.toDetect(TWO_GROUPS, 0.1, 0.05, 0.05, 0.8)).isBetween(66, 70);
    // Pairs: n ≈ ((z_{0.975} + z_{0.8})·s/δ)² ≈ 33.0 pairs, half the runs per group above, for
    // the same s; the one-sample t's fewer degrees of freedom cost a little more.
    assertThat(RunsNeeded.toDetect(PAIRED, 0.1, 0.05, 0.05, 0.8)).isBetween(33, 36);
  }

  @Test
  void noSpreadNeedsTheMinimumAndMoreSpreadNeedsMore() {
    assertThat(RunsNeeded.toDetect(TWO_GROUPS, 0, 0.05, 0.05, 0.8)).isEqualTo(2);
    assertThat(RunsNeeded.toShowEquivalence(TWO_GROUPS, 0, 0.05, 0.05, 0.8)).isEqualTo(2);
    assertThat(RunsNeeded.toDetect(TWO_GROUPS, 0.2, 0.05, 0.05, 0.8)).isGreaterThan(RunsNeeded.toDetect(TWO_GROUPS, 0.15, 0.05, 0.05, 0.8));
    assertThat(RunsNeeded.toDetect(TWO_GROUPS, 50, 0.001, 0.05, 0.8)).isEqualTo(RunsNeeded.MAX_RUNS);
  }
}
