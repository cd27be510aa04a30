package dev.benchlake.loadgen.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Waits, before a step behind a barrier reports ready, until this JVM's JIT compilers have been
 * quiet for a moment. A duet side's client shares one CPU with its server, and what runs once per
 * run (a pool's start, its threads', the data load) becomes hot only after several runs: its C2
 * compiles, queued before the step, then ran inside the window on one side's CPU and not the
 * other's, and skewed those rounds' ratios (docs/designs.md).
 *
 * <p>Reads the compiler threads' run time from {@code /proc/self/task/TID/schedstat} (Linux, where
 * a duet runs); where that cannot be read it does not wait.
 */
public final class JitQuiet {
  /** How long the compilers must have been idle. */
  public static final Duration QUIET = Duration.ofMillis(50);
  /** The longest wait: a compiler busy that long is not settling before this step. */
  public static final Duration AT_MOST = Duration.ofSeconds(2);
  private static final long POLL_NS = Duration.ofMillis(10).toNanos();
  /** Compiler run time per poll below which the compilers count as idle (a thread's bookkeeping). */
  private static final long IDLE_NS_PER_POLL = Duration.ofMillis(1).toNanos() / 5;
  /** HotSpot's compiler threads' names, as the kernel keeps them (15 characters). */
  private static final String[] COMPILER_THREADS = {"C1 CompilerThre", "C2 CompilerThre"};
  private static final Path TASKS = Path.of("/proc/self/task");

  private JitQuiet() {}

  /**
   * How long this JVM's compilers took to go quiet, in ns (0 where they cannot be read). The
   * compiler threads are found once, at the start: HotSpot adds one only while the others are busy,
   * which keeps the wait going anyway, and a thread that ends reads as idle.
   */
  public static long await() throws InterruptedException {
    List<Path> compilers = compilerSchedstats(TASKS);
    if (compilers.isEmpty()) {
      return 0;
    }
    return await(() -> runTimeNs(compilers), System::nanoTime, ns -> Thread.sleep(ns / 1_000_000,
        (int) (ns % 1_000_000)), QUIET.toNanos(), AT_MOST.toNanos());
  }

  /** Sleeps {@code ns}. */
  interface Sleeper {
    void sleep(long ns) throws InterruptedException;
  }

  /**
   * Polls {@code runTimeNs} until it has grown by less than the idle allowance at every poll for
   * {@code quietNs}, or {@code atMostNs} have passed.
   *
   * @return the time waited, in ns
   */
  static long await(LongSupplier runTimeNs, LongSupplier clock, Sleeper sleeper, long quietNs, long atMostNs)
      throws InterruptedException {
    long start = clock.getAsLong();
    long quietSince = start;
    long previous = runTimeNs.getAsLong();
    while (true) {
      long now = clock.getAsLong();
      if (now - quietSince >= quietNs || now - start >= atMostNs) {
        return now - start;
      }
      sleeper.sleep(POLL_NS);
      long current = runTimeNs.getAsLong();
      if (current - previous > IDLE_NS_PER_POLL) {
        quietSince = clock.getAsLong();
      }
      previous = current;
    }
  }

  /**
   * The {@code schedstat} files of the compiler threads among {@code tasks}' threads; empty when
   * there are none or they cannot be read.
   */
  static List<Path> compilerSchedstats(Path tasks) {
    try (Stream<Path> threads = Files.list(tasks)) {
      List<Path> compilers = new ArrayList<>();
      for (Path thread : (Iterable<Path>) threads::iterator) {
        try {
          if (isCompiler(Files.readString(thread.resolve("comm")).strip())) {
            compilers.add(thread.resolve("schedstat"));
          }
        } catch (IOException e) {
          // the thread ended between the listing and the read
        }
      }
      return compilers;
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** The summed run time (ns on a CPU) in {@code schedstats}; a thread that has ended counts 0. */
  static long runTimeNs(List<Path> schedstats) {
    long sum = 0;
    for (Path schedstat : schedstats) {
      try {
        String line = Files.readString(schedstat).strip();
        int space = line.indexOf(' ');
        sum += Long.parseLong(space < 0 ? line : line.substring(0, space));
      } catch (IOException | NumberFormatException e) {
        // ended, or not a schedstat line: nothing to add
      }
    }
    return sum;
  }

  private static boolean isCompiler(String threadName) {
    for (String prefix : COMPILER_THREADS) {
      if (threadName.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
