package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The two-stage bootstrap by behaviour: reproducible, centred on θ, as wide as its two stages. */
class TwoStageBootstrapTest {
  /** A run of {@code n} tasks spread evenly over [scale·1000, scale·2000) in 100 buckets. */
  private static TwoStageBootstrap.Run uniformRun(long n, double scale) {
    int buckets = 100;
    long[] lower = new long[buckets];
    long[] upper = new long[buckets];
    long[] counts = new long[buckets];
    for (int i = 0; i < buckets; i++) {
      lower[i] = Math.round(scale * (1000 + 10 * i));
      upper[i] = Math.round(scale * (1000 + 10 * (i + 1))) - 1;
      counts[i] = n / buckets;
    }
    return new TwoStageBootstrap.Run(lower, upper, counts);
  }

  @Test
  void theSameSeedGivesTheSameInterval() {
    TwoStageBootstrap.Run[] b = {uniformRun(1000, 1), uniformRun(1000, 1.1)};
    TwoStageBootstrap.Run[] c = {uniformRun(1000, 1.2), uniformRun(1000, 1.3)};
    assertThat(TwoStageBootstrap.interval(b, c, 0.5, 500, 7)).isEqualTo(TwoStageBootstrap.interval(b, c, 0.5, 500, 7));
  }

  @Test
  void identicalRunsWithManyTasksGiveATightIntervalAroundOne() {
    TwoStageBootstrap.Run[] runs = new TwoStageBootstrap.Run[5];
    Arrays.fill(runs, uniformRun(100_000, 1));
    Interval ci = TwoStageBootstrap.interval(runs, runs, 0.5, 1000, 1);
    assertThat(ci.low()).isBetween(0.99, 1.0);
    assertThat(ci.high()).isBetween(1.0, 1.01);
  }

  @Test
  void runToRunDifferencesWidenTheIntervalAndItCoversTheta() {
    TwoStageBootstrap.Run[] b = {uniformRun(10_000, 0.9), uniformRun(10_000, 1.0), uniformRun(10_000, 1.1)};
    TwoStageBootstrap.Run[] c = {uniformRun(10_000, 1.08), uniformRun(10_000, 1.2), uniformRun(10_000, 1.32)};
    Interval ci = TwoStageBootstrap.interval(b, c, 0.5, 2000, 3);
    // θ = 1.2 exactly (every candidate run is 1.2 times a baseline run).
    assertThat(ci.low()).isLessThan(1.2);
    assertThat(ci.high()).isGreaterThan(1.2);
    assertThat(ci.high() / ci.low()).as("run-to-run spread shows").isGreaterThan(1.1);
  }

  @Test
  void theWithinRunStandardErrorOfTheMedianMatchesTheAsymptoticOne() {
    // Uniform on [1000, 2000): f = 1/1000 at the median 1500; se(median) = √(¼/n)/f = 1000/(2√n).
    long n = 10_000;
    double expected = 1000 / (2 * Math.sqrt(n)) / 1500;
    double se = TwoStageBootstrap.withinRunSeLog(uniformRun(n, 1), 0.5, 4000, 11);
    assertThat(se).isBetween(0.9 * expected, 1.1 * expected);
  }
}
