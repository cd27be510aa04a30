package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/** The machine's CPU time from /proc/stat ({@link MachineCpu}), parsed by hand and read live. */
class MachineCpuTest {
  /** user nice system idle iowait irq softirq steal guest guest_nice, in 10 ms ticks. */
  @Test
  void busyIsEverythingButIdleAndIowaitAndStealCountsAsBusy() {
    MachineCpu.Reading r = MachineCpu.parse("cpu  2255 34 2290 22625563 6290 127 456 7 11 0");
    long busyTicks = 2255 + 34 + 2290 + 127 + 456 + 7;
    assertThat(r.busyNs()).isEqualTo(busyTicks * 10_000_000L);
    assertThat(r.allNs()).isEqualTo((busyTicks + 22625563 + 6290) * 10_000_000L);
    assertThatThrownBy(() -> MachineCpu.parse("cpu0 1 2 3 4 5 6 7 8 9 10")).isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Live: over 400 ms in which this thread spins, the machine's time in all is the elapsed time
   * times its CPUs (to a few ticks), and its busy time holds at least most of the spin.
   */
  @Test
  void aSpinShowsInTheMachinesBusyTimeAndAllIsElapsedTimesCpus() throws Exception {
    assumeTrue(MachineCpu.read().isPresent(), "Linux /proc/stat");
    MachineCpu.Reading before = MachineCpu.read().orElseThrow();
    long start = System.nanoTime();
    while (System.nanoTime() - start < 400_000_000L) {
      Thread.onSpinWait();
    }
    MachineCpu.Reading after = MachineCpu.read().orElseThrow();
    double elapsedNs = System.nanoTime() - start;
    assertThat((double) (after.allNs() - before.allNs())).isCloseTo(elapsedNs * Runtime.getRuntime()
        .availableProcessors(), Percentage.withPercentage(15));
    assertThat(after.busyNs() - before.busyNs()).isGreaterThanOrEqualTo(300_000_000L);
  }
}
