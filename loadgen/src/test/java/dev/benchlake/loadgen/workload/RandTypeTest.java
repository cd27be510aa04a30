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

  @Test
  void zipfianMatchesScipysZipfianPmf() {
    // scipy.stats.zipfian(a=0.8, n=100): pmf(1), pmf(2), pmf(10), pmf(100), cdf(10).
    double[] expected = {0.12293414655658282, 0.07060712596125554, 0.019483749199854496, 0.0030879661470469047};
    int[] ranks = {1, 2, 10, 100};
    SplittableRandom r = new SplittableRandom(11);
    int n = 400_000;
    int[] counts = new int[101];
    for (int i = 0; i < n; i++) {
      long v = RandType.ZIPFIAN.next(r, 1, 100);
      assertThat(v).isBetween(1L, 100L);
      counts[(int) v]++;
    }
    for (int i = 0; i < ranks.length; i++) {
      double p = expected[i];
      double se = Math.sqrt(p * (1 - p) / n);
      assertThat(counts[ranks[i]] / (double) n).as("rank " + ranks[i]).isCloseTo(p, org.assertj.core.data.Offset.offset(4 * se));
    }
    int firstTen = 0;
    for (int k = 1; k <= 10; k++) {
      firstTen += counts[k];
    }
    assertThat(firstTen / (double) n).isCloseTo(0.43827455360089357, org.assertj.core.data.Offset.offset(0.004));
    // Shifted ranges start at a.
    assertThat(RandType.ZIPFIAN.next(new SplittableRandom(1), 1000, 1000)).isEqualTo(1000);
  }
}
