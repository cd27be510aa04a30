package dev.benchlake.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandTypeTest {
  @Test
  void uniformCoversTheWholeRangeEvenly() {
    SplittableRandom r = new SplittableRandom(3);
    int[] counts = new int[10];
    for (int i = 0; i < 100_000; i++) {
      long v = RandType.UNIFORM.next(r, 1, 10);
      assertThat(v).isBetween(1L, 10L);
      counts[(int) v - 1]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(9_500, 10_500);
    }
  }

  @Test
  void specialPutsThreeQuartersInTheCentralOnePercent() {
    SplittableRandom r = new SplittableRandom(5);
    int central = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      long v = RandType.SPECIAL.next(r, 1, 1_000_000);
      assertThat(v).isBetween(1L, 1_000_000L);
      if (v >= 495_000 && v <= 505_001) {
        central++;
      }
    }
    // 75 % land there uniformly, plus the bell curve's share of that 1 % band (about 2 % of the rest).
    assertThat(central / (double) n).isBetween(0.74, 0.79);
  }
}
