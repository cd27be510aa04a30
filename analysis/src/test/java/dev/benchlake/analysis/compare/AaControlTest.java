package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.CrossoverLogRatio;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The a/a control takes the duet measurement (a pairing key: here a round) as its unit. References from scipy 1.x (computed outside this
 * code): {@code d = log(c) - log(b)} per pair, {@code r} the mean of each round's d over its steps,
 * {@code ttest_1samp(r, 0).confidence_interval(0.95)} (and {@code (0.90)}, the interval TOST rests on) exponentiated, TOST as the larger of
 * {@code ttest_1samp(r, ∓log 1.05, alternative=greater/less)}.
 */
class AaControlTest {
  private static final double[] BASELINE = {0.00100, 0.00104, 0.00098, 0.00250, 0.00260, 0.00245};

  @Test
  void aSoundControlIsEquivalentWithTheRoundsInterval() {
    AaControl control = AaControl.of(steps(BASELINE, new double[] {0.00101, 0.00103, 0.00099, 0.00252, 0.00259,
        0.00247}), StatisticsSettings.DEFAULTS);
    assertThat(control.measurements()).isEqualTo(3);
    assertThat(control.pairs()).isEqualTo(6);
    assertThat(control.steps()).isEqualTo(2);
    assertThat(control.ratio()).isCloseTo(1.0037880763304166, within(1e-12));
    assertThat(control.ci().low()).isCloseTo(0.9812850371636702, within(1e-10));
    assertThat(control.ci().high()).isCloseTo(1.0268071600230266, within(1e-10));
    // TOST p = 0.0067 <= 0.05
    assertThat(control.verdict()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(control.reliable()).isTrue();
    assertThat(control.measurementsNeeded()).as("decided: nothing to plan").isNull();
    // The interval the verdict rests on: ttest_1samp(r, 0).confidence_interval(0.90), within the margin.
    assertThat(control.equivalenceConfidence()).isCloseTo(0.90, within(1e-12));
    assertThat(control.equivalenceCi().low()).isCloseTo(0.9884608798681713, within(1e-10));
    assertThat(control.equivalenceCi().high()).isCloseTo(1.0193529381936675, within(1e-10));
    assertThat(control.sentence()).startsWith(("A/a control (both sides the same): θ +0.4%, 95% interval [−1.9%, +2.7%],"
        + " 90% interval [−1.2%, +1.9%], over 3 measurements (6 pairs of 2 steps): equivalent, the 90% interval within"
        + " ±5%").replace('−', '-'));
  }

  @Test
  void aControlThatShowsADifferenceMakesTheStudyUnreliable() {
    AaControl control = AaControl.of(steps(BASELINE, new double[] {0.00108, 0.00113, 0.00105, 0.00270, 0.00282,
        0.00263}), StatisticsSettings.DEFAULTS);
    assertThat(control.ratio()).isCloseTo(1.0793282488509481, within(1e-12));
    assertThat(control.ci().low()).isCloseTo(1.0630771223390783, within(1e-10));
    assertThat(control.ci().high()).isCloseTo(1.0958278042936593, within(1e-10));
    // p = 0.0021: side b "slower" where both sides ran the same thing.
    assertThat(control.verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(control.reliable()).isFalse();
    assertThat(control.equivalenceCi().low()).isCloseTo(1.0682725985207193, within(1e-10));
    assertThat(control.equivalenceCi().high()).isCloseTo(1.09049831511246, within(1e-10));
    assertThat(control.sentence()).startsWith("Unreliable: the a/a control (both sides the same) came out slower "
        + "(side b against side a)").contains("90% interval [+6.8%, +9.0%]")
        .contains("not equivalent, the 90% interval not within ±5%");
  }

  @Test
  void aNoisyControlIsInconclusiveAndSoUnreliableAndOnePairDecidesNothing() {
    AaControl noisy = AaControl.of(steps(new double[] {1, 1, 1}, new double[] {0.8, 1.25, 1.02}),
        StatisticsSettings.DEFAULTS);
    assertThat(noisy.ratio()).isCloseTo(1.006622709560113, within(1e-12));
    assertThat(noisy.ci().low()).isCloseTo(0.5778473493847776, within(1e-10));
    assertThat(noisy.ci().high()).isCloseTo(1.7535587564448851, within(1e-10));
    assertThat(noisy.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(noisy.sentence()).startsWith("Unreliable: the a/a control (both sides the same) came out inconclusive");
    // What would decide it: the smallest n whose two-sided t at ln 1.05 has 80 % power at the SD of
    // the 3 log ratios (scipy: nct.sf(t, n-1, λ) + nct.cdf(-t, n-1, λ) = 0.8011 at n = 167, 0.7987 at 166);
    // showing equivalence would take more.
    assertThat(noisy.measurementsNeeded()).isEqualTo(167);
    assertThat(noisy.sentence()).contains("(about 167 measurements would decide it, at 80% power at their spread:"
        + " more a/a rounds)");
    assertThat(AaControl.of(List.of(pairs(new double[] {1}, new double[] {1.01}, 0)), StatisticsSettings.DEFAULTS))
        .as("one measurement has no interval").isNull();
    assertThat(AaControl.of(List.of(pairs(new double[] {1}, new double[] {1.01}, 0),
        pairs(new double[] {1}, new double[] {0.99}, 3)), StatisticsSettings.DEFAULTS))
        .as("two steps of one measurement are still one").isNull();
    List<RunPairs> none = new ArrayList<>();
    none.add(null);
    assertThat(AaControl.of(none, StatisticsSettings.DEFAULTS)).isNull();
  }

  /**
   * The simulation behind the round as the unit: 3 rounds of 5 steps at θ = 1, each round's steps
   * moved together by a disturbance of that round (SD 0.10 on the log ratio: other work on one CPU
   * set for a while) and each pair by its own (SD 0.02). Taking the 15 pairs as independent called
   * a difference in about 45 % of such controls; the rounds keep it near α, and the interval covers
   * θ = 1 about 95 % of the time. A control whose θ is 1.30 with the same noise is still called
   * slower most of the time (power), so the rounds do not buy their honesty by never deciding.
   */
  @Test
  void withStepsOfOneRoundMovedTogetherTheFalseCallRateStaysNearAlpha() {
    java.util.Random random = new java.util.Random(28);
    int trials = 4000;
    int falseCalls = 0;
    int covered = 0;
    int detected = 0;
    for (int t = 0; t < trials; t++) {
      AaControl control = AaControl.of(correlatedSteps(random, 0.0), StatisticsSettings.DEFAULTS);
      falseCalls += control.verdict() == Verdict.SLOWER || control.verdict() == Verdict.FASTER ? 1 : 0;
      covered += control.ci().low() <= 1 && 1 <= control.ci().high() ? 1 : 0;
      detected += AaControl.of(correlatedSteps(random, Math.log(1.30)), StatisticsSettings.DEFAULTS).verdict()
          == Verdict.SLOWER ? 1 : 0;
    }
    // Binomial(4000, 0.05): SD 0.0034; the bounds are over 4 SD away from 0.05 and 0.95.
    assertThat(falseCalls / (double) trials).as("false calls").isBetween(0.035, 0.065);
    assertThat(covered / (double) trials).as("coverage").isBetween(0.935, 0.965);
    assertThat(detected / (double) trials).as("power at θ = 1.30").isGreaterThan(0.5);
  }

  /** 5 steps of 3 rounds: each round's log ratios share a disturbance. */
  private static List<RunPairs> correlatedSteps(java.util.Random random, double logTheta) {
    double[] roundShift = new double[3];
    for (int r = 0; r < 3; r++) {
      roundShift[r] = 0.10 * random.nextGaussian();
    }
    List<RunPairs> steps = new ArrayList<>();
    for (int step = 0; step < 5; step++) {
      double[] baseline = new double[3];
      double[] candidate = new double[3];
      for (int r = 0; r < 3; r++) {
        baseline[r] = 0.001 * (step + 1);
        candidate[r] = baseline[r] * Math.exp(logTheta + roundShift[r] + 0.02 * random.nextGaussian());
      }
      steps.add(pairs(baseline, candidate, 3 * step));
    }
    return steps;
  }

  @Test
  void measurementsThatSwapCpuSetsHaveTheSetFittedAsTheComparisonDoes() {
    // Four rounds of one step, the side on CPU 1 20 % slower: the swap swings the a/a ratio ±20 %.
    double[] noise = {0.004, -0.003, -0.002, 0.001};
    List<RunPairs.Pair> pairs = new ArrayList<>();
    List<Double> logRatios = new ArrayList<>();
    boolean[] onSetOne = new boolean[4];
    for (int i = 0; i < 4; i++) {
      boolean aOnZero = i % 2 == 0;
      double a = 0.001 * (aOnZero ? 1 : 1.2);
      double b = 0.001 * (aOnZero ? 1.2 : 1) * Math.exp(noise[i]);
      pairs.add(new RunPairs.Pair("round=" + (i + 1), Sides.of("a" + i, "b" + i), Sides.of(a, b),
          aOnZero ? Sides.of("0", "1") : Sides.of("1", "0")));
      logRatios.add(Math.log(b / a));
      onSetOne[i] = aOnZero;
    }
    AaControl fitted = AaControl.of(List.of(new RunPairs(pairs, List.of())), StatisticsSettings.DEFAULTS);
    assertThat(fitted.cpuSetFitted()).isTrue();
    CrossoverLogRatio expected = CrossoverLogRatio.of(logRatios.stream().mapToDouble(Double::doubleValue).toArray(),
        onSetOne);
    assertThat(fitted.ratio()).isCloseTo(expected.ratio(), within(1e-12));
    assertThat(fitted.ratio()).isCloseTo(1.0, within(0.005));
    assertThat(fitted.verdict()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(fitted.sentence()).contains("over 4 measurements (4 pairs of 1 step, CPU set fitted)");
    // Without the sets the same figures are too noisy to call anything.
    List<RunPairs.Pair> unlabelled = pairs.stream().map(p -> new RunPairs.Pair(p.key(), p.runIds(), p.figures()))
        .toList();
    AaControl plain = AaControl.of(List.of(new RunPairs(unlabelled, List.of())), StatisticsSettings.DEFAULTS);
    assertThat(plain.cpuSetFitted()).isFalse();
    assertThat(plain.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  /** Two steps of three pairs each from six figures a side (one step when three). */
  private static List<RunPairs> steps(double[] baseline, double[] candidate) {
    List<RunPairs> steps = new ArrayList<>();
    for (int from = 0; from < baseline.length; from += 3) {
      steps.add(pairs(java.util.Arrays.copyOfRange(baseline, from, from + 3),
          java.util.Arrays.copyOfRange(candidate, from, from + 3), from));
    }
    return steps;
  }

  private static RunPairs pairs(double[] baseline, double[] candidate, int offset) {
    List<RunPairs.Pair> pairs = new ArrayList<>();
    for (int i = 0; i < baseline.length; i++) {
      pairs.add(new RunPairs.Pair("round=" + (i + 1), Sides.of("a" + (offset + i), "b" + (offset + i)),
          Sides.of(baseline[i], candidate[i])));
    }
    return new RunPairs(pairs, List.of());
  }
}
