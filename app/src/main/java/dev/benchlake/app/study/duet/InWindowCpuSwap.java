package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.raw.StepCpuSwap;
import dev.benchlake.core.raw.StepWindow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * Swaps a duet's two sides between their CPU sets every period ({@link SwapRule}) inside each step, on a
 * thread of the coordinator's. On a VM one virtual CPU can run some 45 % slower than the other for
 * minutes and then the slowness moves (docs/designs.md): swapping sets between rounds leaves a
 * round's ratio at the mercy of that, while swapping inside the window gives each side the same
 * time on each set. The phase is tied to the start of each step's measured window: a side is on its
 * round's set in the window's first period, on the other set in the second, and so on, so that a
 * window lasting an even number of periods (with the default period, any multiple of 200 ms) has each side exactly half of
 * it on each set.
 *
 * <p>The move itself is {@code move(setOfA, setOfB)}: one write per side's cgroup
 * ({@link CgroupCpusets.Group#cpus}), or one {@code sched_setaffinity} per thread of each side
 * ({@link AffinityMover}); how long it took is measured and said with the lateness ({@link #summary}).
 */
public final class InWindowCpuSwap implements AutoCloseable {
  private final CpuList setA;
  private final CpuList setB;
  private final BiConsumer<CpuList, CpuList> move;
  private final Runnable settle;
  private final long periodNs;
  private final Thread thread;
  /** The start of the current step's measured window (ns since the epoch), or none before the first step. */
  private volatile long anchorEpochNs = Long.MIN_VALUE;
  private volatile boolean closed;
  private volatile RuntimeException failure;
  private boolean swapped;
  private long swaps;
  private long latestLateNs;
  private long totalLateNs;
  private long timedMoves;
  private long totalMoveNs;
  private long longestMoveNs;
  private volatile boolean realtime;
  /** When the first step's start was given ({@link System#nanoTime}), or 0 before: where the time mid-move counts from. */
  private volatile long firstAlignedNs;
  /** How long the swap ran, from the first step's start to {@link #close}. */
  private long swappingNs;
  /** Each move's start (ns since the epoch) and length (ns), two longs a move: where the steps' figures come from. */
  private long[] moveLog = new long[64];
  private int logged;
  /** When {@link #close} was called (ns since the epoch): the end of a last step that has no end of its own. */
  private long closedEpochNs;

  /**
   * @param setA side a's set of this round (its set at the start of every window)
   * @param move sets side a's group to its first argument and side b's to its second
   */
  InWindowCpuSwap(CpuList setA, CpuList setB, BiConsumer<CpuList, CpuList> move, long periodNs) {
    this(setA, setB, move, () -> { }, periodNs);
  }

  /**
   * @param settle run after each move, not timed as part of it: what ends a move once both sides are
   *     on their new sets ({@link AffinityMover#settle}), which is no time with the sides on one set
   */
  InWindowCpuSwap(CpuList setA, CpuList setB, BiConsumer<CpuList, CpuList> move, Runnable settle, long periodNs) {
    this.setA = setA;
    this.setB = setB;
    this.move = move;
    this.settle = settle;
    this.periodNs = periodNs;
    this.thread = new Thread(this::run, "duet-cpu-swap");
    thread.setDaemon(true);
    thread.start();
  }

  /** From now on the periods count from {@code windowStartEpochNs}, a step's measured window's start. */
  void alignTo(long windowStartEpochNs) {
    if (firstAlignedNs == 0) {
      firstAlignedNs = System.nanoTime();
    }
    anchorEpochNs = windowStartEpochNs;
    LockSupport.unpark(thread);
  }

  private void run() {
    realtime = raiseToRealtime();
    long seenAnchor = Long.MIN_VALUE;
    try {
      while (!closed) {
        long anchor = anchorEpochNs;
        if (anchor == Long.MIN_VALUE) {
          LockSupport.park(this);
          continue;
        }
        long now = EpochClock.nowNs();
        long k = Math.floorDiv(now - anchor, periodNs);
        boolean shouldSwap = swappedAt(now, anchor, periodNs);
        if (shouldSwap != swapped) {
          long moveStartEpochNs = EpochClock.nowNs();
          long moveStartNs = System.nanoTime();
          move.accept(shouldSwap ? setB : setA, shouldSwap ? setA : setB);
          long moveNs = System.nanoTime() - moveStartNs;
          logMove(moveStartEpochNs, moveNs);
          settle.run();
          totalMoveNs += moveNs;
          longestMoveNs = Math.max(longestMoveNs, moveNs);
          swapped = shouldSwap;
          swaps++;
          if (anchor == seenAnchor) { // a move at its instant, not one put right after a new step's start
            long late = now - (anchor + k * periodNs);
            latestLateNs = Math.max(latestLateNs, late);
            totalLateNs += late;
            timedMoves++;
          }
        }
        seenAnchor = anchor;
        long next = anchor + (k + 1) * periodNs;
        LockSupport.parkNanos(this, Math.max(0, next - EpochClock.nowNs()));
      }
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /**
   * Whether the sides are on each other's sets at {@code nowNs}: in the odd periods counted from the
   * window's start {@code anchorNs} (before it too: the period just before a window is an odd one).
   */
  static boolean swappedAt(long nowNs, long anchorNs, long periodNs) {
    return Math.floorMod(Math.floorDiv(nowNs - anchorNs, periodNs), 2) == 1;
  }

  /**
   * This thread under the real-time FIFO policy ({@code chrt}, util-linux, once per round): both
   * sides keep every CPU busy, and an ordinary thread woke up to 25 ms after its instant (a
   * quarter of a 100 ms period); root may do it, anyone else keeps the ordinary policy. The thread
   * sleeps but for the microseconds of a move, so it takes nothing from the sides.
   */
  private static boolean raiseToRealtime() {
    try {
      String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // PID/task/TID
      String tid = self.substring(self.lastIndexOf('/') + 1);
      Process chrt = new ProcessBuilder("chrt", "-f", "-p", "1", tid).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return chrt.waitFor(5, TimeUnit.SECONDS) && chrt.exitValue() == 0;
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void logMove(long startEpochNs, long moveNs) {
    if (logged + 2 > moveLog.length) {
      moveLog = java.util.Arrays.copyOf(moveLog, moveLog.length * 2);
    }
    moveLog[logged++] = startEpochNs;
    moveLog[logged++] = moveNs;
  }

  /** Stops swapping (the sides are back on their round's sets when it returns). */
  @Override
  public void close() {
    if (closedEpochNs == 0) {
      closedEpochNs = EpochClock.nowNs();
    }
    if (firstAlignedNs != 0 && swappingNs == 0) {
      swappingNs = System.nanoTime() - firstAlignedNs;
    }
    closed = true;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure == null && swapped) {
      move.accept(setA, setB);
      settle.run();
      swapped = false;
    }
  }

  /** Why swapping stopped, if it failed. */
  RuntimeException failure() {
    return failure;
  }

  /** @throws IllegalStateException when a move failed: the round is not measured as it says */
  void throwIfFailed() {
    if (failure != null) {
      throw new IllegalStateException("the in-window CPU swap failed: " + failure.getMessage(), failure);
    }
  }

  /**
   * How many moves were made, how late after their instants they started, how long they took, and
   * the share of the time since the first step's start that a move was under way (read after {@link
   * #close}). While a move runs one side is on its new set and the other not yet: the two share a set.
   * A pair's first move took 0.65 s as root and 2 s as a plain user where the others took 1–25 ms
   * (docs/log.md, 2026-12-06, night): an average hides that, this share does not.
   *
   * @param whatMoved what a move moved, e.g. {@code "for 46 threads on average"}
   */
  String summary(String whatMoved) {
    return String.format(java.util.Locale.ROOT, "swapped CPU sets %d times, every %.0f ms, %.1f ms late on average, "
        + "at most %.1f ms%s; a move took %.0f µs on average, at most %.0f µs, %s; a move under way %.1f %% of "
        + "the %.1f s", swaps, periodNs / 1e6,
        timedMoves == 0 ? 0 : totalLateNs / 1e6 / timedMoves, latestLateNs / 1e6,
        realtime ? " (a real-time thread)" : "", swaps == 0 ? 0 : totalMoveNs / 1e3 / swaps, longestMoveNs / 1e3,
        whatMoved, movingShare() * 100, swappingNs / 1e9);
  }

  /** The share of the time from the first step's start to {@link #close} that a move was under way (0 to 1). */
  double movingShare() {
    return swappingNs == 0 ? 0 : Math.min(1, (double) totalMoveNs / swappingNs);
  }

  long swaps() {
    return swaps;
  }

  /**
   * Per step of {@code windows}, the moves made in its measured window and the time one was under
   * way ({@link StepCpuSwap}; read after {@link #close}): what the run's manifest records.
   */
  List<StepCpuSwap> perStep(List<StepWindow> windows) {
    return perStep(java.util.Arrays.copyOf(moveLog, logged), windows, closedEpochNs);
  }

  /**
   * @param moves each move's start (ns since the epoch) and length, two longs a move, in order
   * @param endEpochNs where the last step ends when it has no end of its own (a step of a number of tasks)
   */
  static List<StepCpuSwap> perStep(long[] moves, List<StepWindow> windows, long endEpochNs) {
    List<StepCpuSwap> steps = new ArrayList<>();
    if (windows == null) {
      return steps;
    }
    for (int w = 0; w < windows.size(); w++) {
      StepWindow window = windows.get(w);
      long from = window.measuredFromEpochNs();
      long to = window.measuredToEpochNs() != null ? window.measuredToEpochNs()
          : w + 1 < windows.size() ? windows.get(w + 1).startEpochNs() : endEpochNs;
      int count = 0;
      long totalNs = 0;
      long longestNs = 0;
      long underWayNs = 0;
      for (int i = 0; i < moves.length; i += 2) {
        long start = moves[i];
        long end = start + moves[i + 1];
        if (start >= from && start < to) {
          count++;
          totalNs += moves[i + 1];
          longestNs = Math.max(longestNs, moves[i + 1]);
        }
        underWayNs += Math.max(0, Math.min(end, to) - Math.max(start, from));
      }
      steps.add(new StepCpuSwap(window.step(), Math.max(0, to - from), count, count == 0 ? 0 : totalNs / count,
          longestNs, underWayNs));
    }
    return steps;
  }
}
