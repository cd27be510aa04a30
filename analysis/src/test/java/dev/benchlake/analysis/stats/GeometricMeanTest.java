package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Expected values from {@code scipy.stats.gmean} (scipy 1.10.1). */
class GeometricMeanTest {
  @Test
  void matchesScipy() {
    assertThat(GeometricMean.of(new double[] {1180.0, 1215.5, 1199.2})).isCloseTo(1198.1454148678642, within(1e-9));
    assertThat(GeometricMean.of(new double[] {0.0021, 0.0035})).isCloseTo(0.002711088342345193, within(1e-15));
  }

  @Test
  void isExactForEqualValues() {
    assertThat(GeometricMean.of(new double[] {0.1, 0.1, 0.1})).isEqualTo(0.1);
  }

  @Test
  void refusesValuesWithoutALogarithm() {
    assertThatThrownBy(() -> GeometricMean.of(new double[] {})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeometricMean.of(new double[] {1, 0})).isInstanceOf(IllegalArgumentException.class);
  }

  /** scipy: {@code exp(ttest_1samp(log x, 0).confidence_interval(0.95))}. */
  @Test
  void itsIntervalMatchesScipyAndIsAPointForEqualValues() {
    Interval i = GeometricMean.interval(new double[] {101.0, 97.5, 110.2}, 0.95);
    assertThat(i.low()).isCloseTo(87.8692208684412, within(1e-9));
    assertThat(i.high()).isCloseTo(120.18076028530373, within(1e-9));
    Interval same = GeometricMean.interval(new double[] {5, 5}, 0.95);
    assertThat(same.low()).isCloseTo(5, within(1e-12));
    assertThat(same.high()).isCloseTo(5, within(1e-12));
    assertThatThrownBy(() -> GeometricMean.interval(new double[] {5}, 0.95))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least two");
  }

  /**
   * Coverage: 3 repeats from a log-normal of median 100 (SD 0.2 on the log scale), 4000 times; the
   * 95 % interval must cover the median (the geometric mean's target) 95 % of the time
   * (Binomial SD 0.0034: bounds over 4 SD away).
   */
  @Test
  void itsIntervalCoversTheMedianOfALogNormalAtItsLevel() {
    java.util.Random random = new java.util.Random(29);
    int covered = 0;
    int trials = 4000;
    for (int t = 0; t < trials; t++) {
      double[] x = new double[3];
      for (int i = 0; i < 3; i++) {
        x[i] = 100 * Math.exp(0.2 * random.nextGaussian());
      }
      Interval i = GeometricMean.interval(x, 0.95);
      covered += i.low() <= 100 && 100 <= i.high() ? 1 : 0;
    }
    assertThat(covered / (double) trials).isBetween(0.935, 0.965);
  }
}
