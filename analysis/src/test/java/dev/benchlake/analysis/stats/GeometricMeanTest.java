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
}
