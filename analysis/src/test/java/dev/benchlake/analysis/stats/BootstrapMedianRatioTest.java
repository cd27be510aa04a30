package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Reference.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BootstrapMedianRatioTest {
  static List<Sample> samplesWithBootstrap() {
    return Reference.samples().stream().filter(s -> s.expected().has("bootstrap_ratio_quantiles")).toList();
  }

  /**
   * The reference is plain resampling with 100,000 replicates: our 2.5 % and 97.5 % points from
   * 2,000 order-statistic replicates must fall where those of the true bootstrap distribution
   * lie, i.e. between its 1 % and 4 % (96 % and 99 %) quantiles — a band that a correct method
   * leaves only with probability ~1e-5, and that a wrong order statistic or a resample of the
   * wrong size misses by far.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("samplesWithBootstrap")
  void intervalMatchesPlainResampling(Sample sample) {
    JsonNode q = sample.expected().get("bootstrap_ratio_quantiles");
    Interval interval = BootstrapMedianRatio.interval(sample.sortedCandidate(), sample.sortedBaseline(),
        BootstrapMedianRatio.DEFAULT_RESAMPLES, BootstrapMedianRatio.DEFAULT_SEED);
    assertThat(interval.low()).isBetween(q.get("0.01").asDouble(), q.get("0.04").asDouble());
    assertThat(interval.high()).isBetween(q.get("0.96").asDouble(), q.get("0.99").asDouble());
  }

  @Test
  void sameSeedSameInterval() {
    long[] c = {10, 12, 13, 15, 19, 30};
    long[] b = {9, 11, 11, 14, 20};
    assertThat(BootstrapMedianRatio.interval(c, b, 500, 1)).isEqualTo(BootstrapMedianRatio.interval(c, b, 500, 1));
  }

  @Test
  void singleValuesGiveADegenerateInterval() {
    assertThat(BootstrapMedianRatio.interval(new long[] {6}, new long[] {3}, 100, 1)).isEqualTo(new Interval(2, 2));
  }

  @Test
  void zeroBaselineMediansLeaveNoRatio() {
    assertThat(BootstrapMedianRatio.interval(new long[] {6}, new long[] {0}, 100, 1)).isEqualTo(Interval.UNBOUNDED);
  }

  @Test
  void ranksStayInsideTheSample() {
    BootstrapMedianRatio.Plan plan = BootstrapMedianRatio.plan(4, 7, 3000, 5);
    assertThat(plan.candidateRanks()).hasSize(6000);
    assertThat(java.util.Arrays.stream(plan.candidateRanks()).min().getAsLong()).isZero();
    assertThat(java.util.Arrays.stream(plan.candidateRanks()).max().getAsLong()).isEqualTo(3L);
    assertThat(plan.baselineRanks()).hasSize(3000);
    assertThat(java.util.Arrays.stream(plan.baselineRanks()).min().getAsLong()).isZero();
    assertThat(java.util.Arrays.stream(plan.baselineRanks()).max().getAsLong()).isEqualTo(6L);
  }
}
