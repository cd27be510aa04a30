package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.raw.StepCpuSwap;
import dev.benchlake.core.raw.StepWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The in-window swap's phase (pure), and its thread moving two fake groups. */
class InWindowCpuSwapTest {
  private static final long P = 500;

  @Test
  void eachSideIsOnItsRoundsSetInTheFirstPeriodOfTheWindowAndTheOtherInTheSecond() {
    long anchor = 10_000;
    assertThat(InWindowCpuSwap.swappedAt(anchor, anchor, P)).isFalse();
    assertThat(InWindowCpuSwap.swappedAt(anchor + P - 1, anchor, P)).isFalse();
    assertThat(InWindowCpuSwap.swappedAt(anchor + P, anchor, P)).isTrue();
    assertThat(InWindowCpuSwap.swappedAt(anchor + 2 * P - 1, anchor, P)).isTrue();
    assertThat(InWindowCpuSwap.swappedAt(anchor + 2 * P, anchor, P)).isFalse();
    // The warm-up before the window: the period just before it is swapped, the one before that not.
    assertThat(InWindowCpuSwap.swappedAt(anchor - 1, anchor, P)).isTrue();
    assertThat(InWindowCpuSwap.swappedAt(anchor - P - 1, anchor, P)).isFalse();
  }

  @Test
  void aWindowOfAnEvenNumberOfPeriodsHasEachSideHalfOfItOnEachSet() {
    long anchor = 123_456_789;
    // Read once: parsed from its text inside the loop, it was nearly all of 70 million iterations'
    // time (23 s of a CI run).
    long periodNs = SwapRule.defaultPeriod().toNanos();
    for (long windowMs : new long[] {200, 1000, 2000, 7000, 60_000}) {
      long swappedNs = 0;
      long stepNs = 1_000; // 1 µs resolution over the window
      long windowNs = TimeUnit.MILLISECONDS.toNanos(windowMs);
      for (long t = anchor; t < anchor + windowNs; t += stepNs) {
        if (InWindowCpuSwap.swappedAt(t, anchor, periodNs)) {
          swappedNs += stepNs;
        }
      }
      assertThat(swappedNs).as("a %d ms window", windowMs).isEqualTo(windowNs / 2);
    }
  }

  @Test
  void theThreadMovesBothGroupsAtTheBoundariesAndPutsThemBackWhenClosed() throws Exception {
    CpuList one = CpuList.parse("0");
    CpuList two = CpuList.parse("1");
    List<long[]> moves = new ArrayList<>(); // epoch ns, 1 when a is on set two
    List<CpuList[]> sets = new ArrayList<>();
    long period = TimeUnit.MILLISECONDS.toNanos(40);
    InWindowCpuSwap swap = new InWindowCpuSwap(one, two, (a, b) -> {
      synchronized (moves) {
        moves.add(new long[] {EpochClock.nowNs(), a.equals(two) ? 1 : 0});
        sets.add(new CpuList[] {a, b});
      }
    }, period);
    Thread.sleep(100);
    assertThat(moves).as("no move before the first step's start is known").isEmpty();
    long anchor = EpochClock.nowNs() + TimeUnit.MILLISECONDS.toNanos(50);
    swap.alignTo(anchor);
    Thread.sleep(450);
    swap.close();
    assertThat(swap.failure()).isNull();
    synchronized (moves) {
      assertThat(moves.size()).as("moves in 450 ms of 40 ms periods").isGreaterThanOrEqualTo(6);
      // The first move is into the period before the window (a swapped one); then they alternate.
      assertThat(moves.get(0)[1]).isEqualTo(1);
      assertThat(moves.get(0)[0]).isGreaterThanOrEqualTo(anchor - period);
      for (int i = 0; i < moves.size(); i++) {
        assertThat(moves.get(i)[1]).as("move %d", i).isEqualTo(i % 2 == 0 ? 1 : 0);
        assertThat(sets.get(i)[0]).isNotEqualTo(sets.get(i)[1]);
      }
      assertThat(sets.get(sets.size() - 1)).as("back on the round's sets").containsExactly(one, two);
    }
    // Every move but the one that put the sides back at the end (none when the last period was an even one).
    assertThat(swap.swaps()).isBetween(moves.size() - 1L, (long) moves.size());
    assertThat(swap.summary("one write per side's group")).startsWith("swapped CPU sets " + swap.swaps() + " times, "
        + "every 40 ms, ").containsPattern("; a move took \\d+ µs on average, at most \\d+ µs, one write per side's group; a move under way "
        + "\\d+\\.\\d % of the \\d+\\.\\d s$");
  }

  /**
   * Moves that take most of a period (a pair's first move took 2 s as a plain user, docs/log.md
   * 2026-12-06, night): the line says what share of the time a move was
   * under way, when one side was on its new set and the other not yet. Here 30 ms of every 40 ms
   * period, about 2/3 of the time: the bar is a quarter, for a thread that wakes up to 90 ms late.
   */
  @Test
  void theLineSaysTheShareOfTheTimeAMoveWasUnderWay() throws Exception {
    long period = TimeUnit.MILLISECONDS.toNanos(40);
    InWindowCpuSwap swap = new InWindowCpuSwap(CpuList.parse("0"), CpuList.parse("1"), (a, b) -> {
      try {
        Thread.sleep(30);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, period);
    swap.alignTo(EpochClock.nowNs());
    Thread.sleep(400);
    swap.close();
    assertThat(swap.movingShare()).as("share of the time mid-move").isGreaterThanOrEqualTo(0.25);
    assertThat(swap.summary("x")).containsPattern("; a move under way \\d+\\.\\d % of the \\d+\\.\\d s$");
  }

  /**
   * Issue 46 item 5: per step, the moves begun in its measured window, their mean and longest, and the
   * time one was under way inside the window (a move begun before it counts from its start, one that
   * ends after it up to its end); a step of a number of tasks ends where the next starts, the last
   * where the swap was closed. As the manifest's {@code step_cpu_swaps} names them, which the report's
   * scope reads.
   */
  @Test
  void eachStepRecordsItsMovesAndTheTimeOneWasUnderWayInItsMeasuredWindow() throws Exception {
    List<StepWindow> windows = List.of(new StepWindow("timed", 0, 1000, 3000L, true),
        new StepWindow("tasks", 3500, 4000, null, true));
    long[] moves = {500, 600, 2000, 50, 2950, 100, 4500, 10, 5990, 20};
    assertThat(InWindowCpuSwap.perStep(moves, windows, 6000)).containsExactly(
        new StepCpuSwap("timed", 2000, 2, 75, 100, 100 + 50 + 50), new StepCpuSwap("tasks", 2000, 2, 15, 20, 10 + 10));
    assertThat(new StepCpuSwap("timed", 2000, 2, 75, 100, 200).underWayShare()).isEqualTo(0.1);
    com.fasterxml.jackson.databind.ObjectMapper json = dev.benchlake.core.Json.mapper();
    assertThat(json.readTree(json.writeValueAsString(new StepCpuSwap("s", 2000, 2, 75, 100, 200))))
        .as("the manifest's names, which the report's scope reads").isEqualTo(json.readTree("{\"step\":\"s\","
            + "\"measured_ns\":2000,\"moves\":2,\"mean_move_ns\":75,\"longest_move_ns\":100,\"under_way_ns\":200}"));
    assertThat(InWindowCpuSwap.perStep(moves, null, 6000)).isEmpty();
  }

  @Test
  void aMoveThatFailsStopsTheSwapAndIsKept() throws Exception {
    InWindowCpuSwap swap = new InWindowCpuSwap(CpuList.parse("0"), CpuList.parse("1"), (a, b) -> {
      throw new IllegalStateException("cannot set cpuset.cpus");
    }, TimeUnit.MILLISECONDS.toNanos(10));
    swap.alignTo(EpochClock.nowNs() - TimeUnit.MILLISECONDS.toNanos(15)); // in an odd period: a move at once
    // Not a fixed 100 ms: the thread first starts chrt (a process), which under a load of 12-23 took
    // longer than that, and close() then came before the move (2 of 3 runs failed so).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (swap.failure() == null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    swap.close();
    assertThat(swap.failure()).hasMessage("cannot set cpuset.cpus");
  }
}
