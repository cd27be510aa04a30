package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CPU set fitted ({@link CrossoverLogRatio}) against numpy and scipy ({@code make_reference.py},
 * {@code crossover_log_ratios}: least squares on {@code [1, x]} with numpy's {@code lstsq}, checked
 * there against scipy's {@code linregress} intercept), and by simulation: duets whose set one is
 * slower by a set term, at θ = 1 and around it, fixed and looked at after every round.
 */
class CrossoverLogRatioTest {
  private static final double ALPHA = 0.05;
  private static final double MARGIN = 0.05;
  private static final StatisticsSettings SETTINGS = new StatisticsSettings(ALPHA, MARGIN, Correction.HOLM);

  static List<JsonNode> cases() {
    return Reference.nodes("crossover_log_ratios");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesNumpyLeastSquares(JsonNode c) {
    double[] b = Reference.doubles(c.get("baseline"));
    double[] d = Reference.doubles(c.get("candidate"));
    for (int i = 0; i < d.length; i++) {
      d[i] = Math.log(d[i]) - Math.log(b[i]);
    }
    boolean[] onSetOne = new boolean[d.length];
    for (int i = 0; i < d.length; i++) {
      onSetOne[i] = c.get("baseline_on_set_one").get(i).asBoolean();
    }
    CrossoverLogRatio r = CrossoverLogRatio.of(d, onSetOne);
    assertThat(r.pairs()).isEqualTo(d.length);
    assertThat(r.meanLogDifference()).isCloseTo(c.get("mean_log_difference").asDouble(), within(1e-12));
    assertThat(r.setEffectLog()).isCloseTo(c.get("set_effect_log").asDouble(), within(1e-12));
    assertThat(r.residualSdLog()).isCloseTo(c.get("residual_sd_log").asDouble(), within(1e-12));
    assertThat(r.seLog()).isCloseTo(c.get("se_log").asDouble(), within(1e-12));
    assertThat((double) r.df()).isEqualTo(c.get("df").asDouble());
    assertThat(r.setRatio()).isCloseTo(c.get("set_ratio").asDouble(), within(1e-12 * r.setRatio()));
    Reference.assertEffectMatches(r, c);
  }

  @Test
  void theReferenceHoldsASetThatMattersAndOneThatDoesNot() {
    assertThat(cases()).anySatisfy(c -> assertThat(Math.abs(c.get("set_effect_log").asDouble())).isGreaterThan(0.1));
    assertThat(cases()).anySatisfy(c -> assertThat(Math.abs(c.get("set_effect_log").asDouble())).isLessThan(0.05));
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("p_equivalence").get("0.05").asDouble()).isLessThan(0.05));
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("baseline").size() % 2).isEqualTo(1));
  }

  @Test
  void fewerThanTwoPairsEachWayAreRefused() {
    assertThatThrownBy(() -> CrossoverLogRatio.of(new double[] {0.1, 0.2, 0.3}, new boolean[] {true, false, true}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("have 2 and 1");
    assertThat(CrossoverLogRatio.fits(new boolean[] {true, false, true, false})).isTrue();
    assertThat(CrossoverLogRatio.fits(new boolean[] {true, true, true, false})).isFalse();
    assertThat(RunsNeeded.powerToDetectShift(SampleDesign.CROSSOVER, 2, 0.05, 0.1, ALPHA)).isZero();
  }

  /** What one simulated design did over many studies. */
  private record Outcome(int falseCalls, int notCovered, double meanHalfWidthLog, int studies) {}

  @Test
  void aSlowerSetNeitherBiasesNorWidensTheFittedInterval() {
    // Ten alternating rounds, set one 15 % slower for whichever side runs on it (c = 0.15 on the
    // log ratio), per-pair noise 0.04 (the residual SDs measured on this project's VM).
    Outcome fitted = simulateFixed(10, 1.0, 0.15, 0.04, 4000, 7, true);
    Outcome ignored = simulateFixed(10, 1.0, 0.15, 0.04, 4000, 7, false);
    assertThat(fitted.falseCalls()).as("false faster/slower with the set fitted")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, fitted.studies()));
    assertThat(fitted.notCovered()).as("95 %% intervals that miss θ = 1")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(0.05, fitted.studies()));
    // The one-sample t counts the set's swing as noise: measured 3.5× wider here.
    assertThat(ignored.meanHalfWidthLog()).isGreaterThan(2.5 * fitted.meanHalfWidthLog());
    // An odd number of rounds: the fit weighs both assignments alike, so θ stays unbiased.
    Outcome odd = simulateFixed(7, 1.0, 0.15, 0.04, 4000, 8, true);
    assertThat(odd.falseCalls()).isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, odd.studies()));
    assertThat(odd.notCovered()).isLessThanOrEqualTo(DuetSimulation.mostAt(0.05, odd.studies()));
    // And where the sets are alike the fit costs one degree of freedom, nothing more.
    Outcome alike = simulateFixed(10, 1.0, 0.0, 0.04, 4000, 9, true);
    assertThat(alike.falseCalls()).isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, alike.studies()));
    assertThat(alike.notCovered()).isLessThanOrEqualTo(DuetSimulation.mostAt(0.05, alike.studies()));
  }

  @Test
  void lookingAfterEveryRoundWithTheSetFittedFromTheFourthKeepsTheErrorRates() {
    // As the paired analysis runs in a study until decided: looks from round 3 to 10, the set
    // fitted from the look at which each assignment has two pairs (round 4), the one-sample t before.
    SequentialLooks looks = SequentialLooks.haybittlePeto(SETTINGS, 3, 10);
    int studies = 2000;
    SplittableRandom random = new SplittableRandom(11);
    int falseDifference = 0;
    int falseEquivalence = 0;
    int edgeStudies = 0;
    for (int s = 0; s < studies; s++) {
      double theta = s % 2 == 0 ? 1.0 : (s % 4 == 1 ? 1 + MARGIN : 1 / (1 + MARGIN));
      double sd = theta == 1.0 ? 0.1 : 0.02;
      double[] d = logRatios(random, 10, Math.log(theta), 0.15, sd);
      boolean[] onSetOne = alternating(10);
      boolean differs = false;
      boolean equivalent = false;
      for (int round = looks.firstLook(); round <= 10; round++) {
        RatioEffect effect = effect(Arrays.copyOf(d, round), Arrays.copyOf(onSetOne, round), true);
        Verdict v = looks.decide(round, List.of(effect), true).decisions().get(0).verdict();
        differs |= (v == Verdict.FASTER || v == Verdict.SLOWER);
        equivalent |= v == Verdict.EQUIVALENT;
      }
      if (theta == 1.0) {
        falseDifference += differs ? 1 : 0;
      } else {
        edgeStudies++;
        falseEquivalence += equivalent ? 1 : 0;
      }
    }
    assertThat(falseDifference).as("faster or slower at any look, θ = 1")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, studies - edgeStudies));
    assertThat(falseEquivalence).as("equivalent at any look, θ at the edge of the band")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, edgeStudies));
  }

  @Test
  void aRealChangeIsFoundDespiteTheSet() {
    // θ = 1.10 with set one 15 % slower: the fitted analysis calls it slower in nearly every study.
    SplittableRandom random = new SplittableRandom(12);
    int slower = 0;
    for (int s = 0; s < 1000; s++) {
      RatioEffect effect = effect(logRatios(random, 10, Math.log(1.10), 0.15, 0.04), alternating(10), true);
      slower += RatioDecisions.decideWithoutPlanning(List.of(effect), SETTINGS, true).get(0).verdict()
          == Verdict.SLOWER ? 1 : 0;
    }
    assertThat(slower).isGreaterThan(950);
  }

  private static Outcome simulateFixed(int rounds, double theta, double setEffect, double sd, int studies, long seed,
      boolean fitSet) {
    SplittableRandom random = new SplittableRandom(seed);
    int falseCalls = 0;
    int notCovered = 0;
    double halfWidths = 0;
    for (int s = 0; s < studies; s++) {
      RatioEffect effect = effect(logRatios(random, rounds, Math.log(theta), setEffect, sd), alternating(rounds),
          fitSet);
      Verdict v = RatioDecisions.decideWithoutPlanning(List.of(effect), SETTINGS, true).get(0).verdict();
      falseCalls += theta == 1.0 && (v == Verdict.FASTER || v == Verdict.SLOWER) ? 1 : 0;
      Interval ci = effect.interval(0.95);
      notCovered += ci.low() <= theta && theta <= ci.high() ? 0 : 1;
      halfWidths += (Math.log(ci.high()) - Math.log(ci.low())) / 2;
    }
    return new Outcome(falseCalls, notCovered, halfWidths / studies, studies);
  }

  /** The analysis a duet's pairs get: the set fitted once each assignment has two pairs. */
  private static RatioEffect effect(double[] logRatios, boolean[] onSetOne, boolean fitSet) {
    return fitSet && CrossoverLogRatio.fits(onSetOne) ? CrossoverLogRatio.of(logRatios, onSetOne)
        : PairedLogRatio.ofLogRatios(logRatios);
  }

  /** Per-pair log ratios: ln θ, plus c when the baseline ran on set one and −c otherwise, plus noise. */
  private static double[] logRatios(SplittableRandom random, int rounds, double logTheta, double setEffect, double sd) {
    boolean[] onSetOne = alternating(rounds);
    double[] d = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      d[i] = logTheta + (onSetOne[i] ? setEffect : -setEffect) + sd * random.nextGaussian();
    }
    return d;
  }

  /** Round 1 with the baseline on set one, then swapped every round, as a duet runs. */
  private static boolean[] alternating(int rounds) {
    boolean[] onSetOne = new boolean[rounds];
    for (int i = 0; i < rounds; i++) {
      onSetOne[i] = i % 2 == 0;
    }
    return onSetOne;
  }
}
