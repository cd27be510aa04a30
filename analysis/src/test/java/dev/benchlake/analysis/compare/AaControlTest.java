package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The a/a control pools every step's pairs. References from scipy 1.x (computed outside this code):
 * {@code d = log(c) - log(b)} over the six pairs, {@code ttest_1samp(d, 0).confidence_interval(0.95)}
 * exponentiated, TOST as the larger of {@code ttest_1samp(d, ∓log 1.05, alternative=greater/less)}.
 */
class AaControlTest {
  private static final double[] BASELINE = {0.00100, 0.00104, 0.00098, 0.00250, 0.00260, 0.00245};

  @Test
  void aSoundControlIsEquivalentWithThePooledPairsInterval() {
    AaControl control = AaControl.of(steps(BASELINE, new double[] {0.00101, 0.00103, 0.00099, 0.00252, 0.00259,
        0.00247}), StatisticsSettings.DEFAULTS);
    assertThat(control.pairs()).isEqualTo(6);
    assertThat(control.steps()).isEqualTo(2);
    assertThat(control.ratio()).isCloseTo(1.0037880763304166, within(1e-12));
    assertThat(control.ci().low()).isCloseTo(0.9949621565781024, within(1e-10));
    assertThat(control.ci().high()).isCloseTo(1.0126922873614084, within(1e-10));
    // TOST p = 2.3e-05 <= 0.05
    assertThat(control.verdict()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(control.reliable()).isTrue();
    assertThat(control.sentence()).startsWith("A/a control (both sides the same): θ +0.4% [−0.5%, +1.3%]"
        .replace('−', '-')).contains("over 6 pairs of 2 steps").contains("equivalent within ±5%");
  }

  @Test
  void aControlThatShowsADifferenceMakesTheStudyUnreliable() {
    AaControl control = AaControl.of(steps(BASELINE, new double[] {0.00108, 0.00113, 0.00105, 0.00270, 0.00282,
        0.00263}), StatisticsSettings.DEFAULTS);
    assertThat(control.ratio()).isCloseTo(1.0793282488509481, within(1e-12));
    assertThat(control.ci().low()).isCloseTo(1.0730893955680076, within(1e-10));
    assertThat(control.ci().high()).isCloseTo(1.0856033743125593, within(1e-10));
    // p = 4.2e-07: side b "slower" where both sides ran the same thing.
    assertThat(control.verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(control.reliable()).isFalse();
    assertThat(control.sentence()).startsWith("Unreliable: the a/a control (both sides the same) came out slower "
        + "(side b against side a)").contains("not equivalent within ±5%");
  }

  @Test
  void aNoisyControlIsInconclusiveAndSoUnreliableAndOnePairDecidesNothing() {
    AaControl noisy = AaControl.of(steps(new double[] {1, 1, 1}, new double[] {0.8, 1.25, 1.02}),
        StatisticsSettings.DEFAULTS);
    assertThat(noisy.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(noisy.sentence()).startsWith("Unreliable: the a/a control (both sides the same) came out inconclusive");
    assertThat(AaControl.of(List.of(pairs(new double[] {1}, new double[] {1.01}, 0)), StatisticsSettings.DEFAULTS))
        .as("one pair has no interval").isNull();
    List<RunPairs> none = new ArrayList<>();
    none.add(null);
    assertThat(AaControl.of(none, StatisticsSettings.DEFAULTS)).isNull();
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
