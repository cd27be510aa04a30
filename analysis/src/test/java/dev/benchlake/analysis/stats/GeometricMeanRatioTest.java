package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Expected values from scipy 1.10.1 ({@code /usr/bin/python3}): {@code d = mean(log c) − mean(log b)},
 * {@code ttest_ind(log c, log b, equal_var=False).pvalue}, and the interval
 * {@code exp(d ± t.ppf(0.975, df)·se)} with Welch's se and df.
 */
class GeometricMeanRatioTest {
  private static final Offset<Double> CLOSE = within(1e-12);

  @Test
  void matchesScipyOnThroughputs() {
    GeometricMeanRatio.Result r = GeometricMeanRatio.of(new double[] {1180.0, 1215.5, 1199.2},
        new double[] {1000.0, 1042.0, 1011.0, 987.5});
    assertThat(r.ratio()).isCloseTo(1.186371036240872, CLOSE);
    // commons-math's t quantile agrees with scipy's to about 1e-11 here.
    assertThat(r.ci95().low()).isCloseTo(1.1433949531194703, withinPercentage(1e-8));
    assertThat(r.ci95().high()).isCloseTo(1.2309624349760244, withinPercentage(1e-8));
    assertThat(r.p()).isCloseTo(7.640410205338462e-05, within(1e-15));
  }

  @Test
  void matchesScipyOnTwoNoisyLatencies() {
    GeometricMeanRatio.Result r = GeometricMeanRatio.of(new double[] {0.0021, 0.0035}, new double[] {0.0020, 0.0022});
    assertThat(r.ratio()).isCloseTo(1.2924606552829934, CLOSE);
    // df ≈ 1.3: commons-math's t quantile agrees with scipy's to about 1e-9, relatively.
    assertThat(r.ci95().low()).isCloseTo(0.07589927539176083, withinPercentage(1e-6));
    assertThat(r.ci95().high()).isCloseTo(22.008833902989785, withinPercentage(1e-6));
    assertThat(r.p()).isCloseTo(0.495351907861043, within(1e-10));
  }

  @Test
  void oneRunGivesTheRatioWithoutIntervalAndIdenticalRunsAZeroWidthOne() {
    GeometricMeanRatio.Result single = GeometricMeanRatio.of(new double[] {2}, new double[] {1, 4});
    assertThat(single.ratio()).isCloseTo(1.0, CLOSE);
    assertThat(single.ci95().bounded()).isFalse();
    assertThat(single.p()).isNaN();
    GeometricMeanRatio.Result same = GeometricMeanRatio.of(new double[] {3, 3}, new double[] {2, 2});
    assertThat(same.ratio()).isCloseTo(1.5, CLOSE);
    assertThat(same.ci95().low()).isCloseTo(1.5, CLOSE);
    assertThat(same.ci95().high()).isCloseTo(1.5, CLOSE);
    assertThat(same.p()).isNaN();
  }

  @Test
  void refusesValuesWithoutALogarithm() {
    assertThatThrownBy(() -> GeometricMeanRatio.of(new double[] {0}, new double[] {1})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeometricMeanRatio.of(new double[] {1}, new double[] {-1})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeometricMeanRatio.of(new double[] {}, new double[] {1})).isInstanceOf(IllegalArgumentException.class);
  }
}
