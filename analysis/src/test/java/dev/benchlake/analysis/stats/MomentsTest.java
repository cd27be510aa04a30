package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.Reference.Sample;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MomentsTest {
  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void meanAndSampleStddevMatchNumpy(Sample sample) {
    Moments c = Moments.of(sample.candidate());
    assertClose("mean", c.mean(), sample.expected().get("candidate_mean").asDouble(), 1e-13);
    assertClose("stddev", c.sampleStddev(), Reference.number(sample.expected().get("candidate_stddev")), 1e-11);
    Moments b = Moments.of(sample.baseline());
    assertClose("mean", b.mean(), sample.expected().get("baseline_mean").asDouble(), 1e-13);
    assertClose("stddev", b.sampleStddev(), Reference.number(sample.expected().get("baseline_stddev")), 1e-11);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void mergingPartsEqualsOnePass(Sample sample) {
    long[] values = sample.baseline();
    Moments whole = Moments.of(values);
    for (int cut = 0; cut <= values.length; cut += Math.max(1, values.length / 7)) {
      Moments merged = Moments.of(Arrays.copyOfRange(values, 0, cut))
          .merge(Moments.of(Arrays.copyOfRange(values, cut, values.length)));
      assertThat(merged).isEqualTo(whole);
    }
  }

  @Test
  void sumsStayExactBeyondSixtyFourBits() {
    long big = 3_000_000_000_000L;
    Moments m = Moments.of(new long[] {big, big + 2, -5, Long.MAX_VALUE / 4});
    assertThat(m.sum()).isEqualTo(java.math.BigInteger.valueOf(big).multiply(java.math.BigInteger.TWO)
        .add(java.math.BigInteger.valueOf(2 - 5 + Long.MAX_VALUE / 4)));
    assertThat(m.sumOfSquares()).isEqualTo(java.math.BigInteger.valueOf(big).pow(2)
        .add(java.math.BigInteger.valueOf(big + 2).pow(2)).add(java.math.BigInteger.valueOf(25))
        .add(java.math.BigInteger.valueOf(Long.MAX_VALUE / 4).pow(2)));
  }

  @Test
  void undefinedBelowTwoValues() {
    assertThat(Moments.EMPTY.sampleStddev()).isNaN();
    assertThat(Moments.of(new long[] {7}).sampleVariance()).isNaN();
    assertThat(Moments.of(new long[] {7}).mean()).isEqualTo(7.0);
  }
}
