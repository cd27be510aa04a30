package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class PairedEffectTest {
  private static final double[] LOG_RATIOS = {0.05, 0.07, -0.01, 0.01};

  @Test
  void pairsThatSwapSetsTwiceEachWayHaveTheSetFitted() {
    RatioEffect effect = PairedEffect.of(LOG_RATIOS, new boolean[] {true, true, false, false});
    assertThat(effect).isInstanceOf(CrossoverLogRatio.class);
    assertThat(((CrossoverLogRatio) effect).setEffectLog()).isCloseTo(0.03, Offset.offset(1e-12));
  }

  @Test
  void withoutTwoPairsEachWayOrWithoutSetsItIsTheOneSampleT() {
    assertThat(PairedEffect.of(LOG_RATIOS, new boolean[] {true, true, true, false})).isInstanceOf(PairedLogRatio.class);
    assertThat(PairedEffect.of(LOG_RATIOS, null)).isEqualTo(PairedLogRatio.ofLogRatios(LOG_RATIOS));
  }
}
