package dev.benchlake.analysis.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyBucketsTest {
  @Test
  void bucketsAreIntervalsWhoseBoundsInvertTheFunction() {
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 200_000; i++) {
      long v = switch (i % 4) {
        case 0 -> random.nextLong(0, 1000);
        case 1 -> random.nextLong(0, 1L << 40);
        case 2 -> random.nextLong();
        default -> -random.nextLong(0, 1L << 40);
      };
      long b = LatencyBuckets.of(v);
      assertThat(LatencyBuckets.lowerBound(b)).isLessThanOrEqualTo(v);
      assertThat(LatencyBuckets.upperBound(b)).isGreaterThanOrEqualTo(v);
      assertThat(LatencyBuckets.of(LatencyBuckets.lowerBound(b))).isEqualTo(b);
      assertThat(LatencyBuckets.of(LatencyBuckets.upperBound(b))).isEqualTo(b);
      if (LatencyBuckets.lowerBound(b) > Long.MIN_VALUE) {
        assertThat(LatencyBuckets.of(LatencyBuckets.lowerBound(b) - 1)).isEqualTo(b - 1);
      }
    }
  }

  @Test
  void extremesAndSmallValues() {
    assertThat(LatencyBuckets.of(0)).isZero();
    assertThat(LatencyBuckets.of(255)).isEqualTo(255);
    assertThat(LatencyBuckets.of(256)).isEqualTo(256);
    assertThat(LatencyBuckets.of(-1)).isEqualTo(-1);
    assertThat(LatencyBuckets.of(Long.MAX_VALUE)).isGreaterThan(LatencyBuckets.of(Long.MAX_VALUE / 2));
    assertThat(LatencyBuckets.of(Long.MIN_VALUE)).isLessThan(LatencyBuckets.of(Long.MIN_VALUE / 2));
    assertThat(LatencyBuckets.upperBound(LatencyBuckets.of(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    assertThat(LatencyBuckets.lowerBound(LatencyBuckets.of(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void aBucketSpansAtMostA256thOfItsValues() {
    for (long v = 1000; v < (1L << 50); v = v * 3 + 7) {
      long b = LatencyBuckets.of(v);
      double width = LatencyBuckets.upperBound(b) - LatencyBuckets.lowerBound(b) + 1;
      assertThat(width / LatencyBuckets.lowerBound(b)).isLessThanOrEqualTo(1.0 / 256);
    }
  }
}
