package dev.benchlake.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The calibration handicap on a fake clock: the recorded end is exactly (1 + stretch) × the task's time. */
class HandicapStretchTest {
  /** A clock that moves {@code stepNs} at every read, counting its reads. */
  private record FakeClock(AtomicLong nowNs, long stepNs, AtomicInteger reads) implements LongSupplier {
    FakeClock(long startNs, long stepNs) {
      this(new AtomicLong(startNs), stepNs, new AtomicInteger());
    }

    @Override
    public long getAsLong() {
      reads.incrementAndGet();
      return nowNs.addAndGet(stepNs);
    }
  }

  @Test
  void everyTaskEndsAtItsOwnTimeStretchedWhateverItsSpeed() {
    HandicapStretch fivePercent = new HandicapStretch(0.05);
    for (long serviceNs : new long[] {80_000, 1_000_000, 37_123_457}) {
      long startNs = 5_000_000_000L;
      long responseNs = startNs + serviceNs;
      FakeClock clock = new FakeClock(responseNs, 1_000);
      long endNs = fivePercent.end(startNs, responseNs, clock);
      assertThat(endNs - startNs).isEqualTo(Math.round(serviceNs * 1.05));
      // It spun until the clock passed the end: no earlier, and not one read more than it took.
      assertThat(clock.nowNs().get()).isGreaterThanOrEqualTo(endNs).isLessThan(endNs + 1_000);
      assertThat(clock.reads().get()).isEqualTo((int) ((endNs - responseNs + 999) / 1_000));
    }
  }

  @Test
  void noHandicapReadsNoClockAndAFullOneDoublesTheTime() {
    FakeClock clock = new FakeClock(0, 1);
    assertThat(HandicapStretch.NONE.end(100, 300, clock)).isEqualTo(300);
    assertThat(clock.reads().get()).isZero();
    assertThat(new HandicapStretch(1.0).end(100, 300, new FakeClock(300, 7))).isEqualTo(500);
  }

  @Test
  void aStretchOutsideZeroToOneIsRefused() {
    for (double bad : new double[] {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new HandicapStretch(bad)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
