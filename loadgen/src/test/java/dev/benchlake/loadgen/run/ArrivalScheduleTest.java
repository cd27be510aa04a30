package dev.benchlake.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {
  @Test
  void fixedArrivalsNeverDrift() {
    ArrivalSchedule s = new ArrivalSchedule(ArrivalSchedule.Kind.FIXED, 3, 1_000, new SplittableRandom(1));
    assertThat(s.next()).isEqualTo(1_000);
    assertThat(s.next()).isEqualTo(1_000 + 333_333_333);
    for (int i = 2; i < 3_000; i++) {
      s.next();
    }
    assertThat(s.next()).isEqualTo(1_000 + 1_000_000_000_000L);
  }

  @Test
  void poissonGapsAreExponentialWithTheRatesMean() {
    ArrivalSchedule s = new ArrivalSchedule(ArrivalSchedule.Kind.POISSON, 1_000, 0, new SplittableRandom(9));
    int n = 200_000;
    long previous = 0;
    double sum = 0;
    double sumSquares = 0;
    int belowMean = 0;
    for (int i = 0; i < n; i++) {
      long t = s.next();
      double gap = t - previous;
      assertThat(gap).isGreaterThanOrEqualTo(0);
      sum += gap;
      sumSquares += gap * gap;
      belowMean += gap < 1_000_000 ? 1 : 0;
      previous = t;
    }
    double mean = sum / n;
    double sd = Math.sqrt(sumSquares / n - mean * mean);
    assertThat(mean).isCloseTo(1_000_000, within(10_000.0));
    assertThat(sd).as("exponential: sd = mean").isCloseTo(1_000_000, within(15_000.0));
    assertThat(belowMean / (double) n).as("P(gap < mean) = 1 - 1/e").isCloseTo(1 - Math.exp(-1), within(0.005));
  }
}
