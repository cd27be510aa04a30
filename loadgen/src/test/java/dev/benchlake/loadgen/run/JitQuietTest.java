package dev.benchlake.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JitQuietTest {
  private static final long MS = 1_000_000;

  /** A fake clock that the fake sleeper moves, and compilers busy until {@code busyUntilNs}. */
  private static final class FakeJvm {
    long now;
    long runTime;
    final long busyUntilNs;

    FakeJvm(long busyUntilNs) {
      this.busyUntilNs = busyUntilNs;
    }

    void sleep(long ns) {
      // While busy, a compiler runs for the whole poll.
      runTime += now < busyUntilNs ? Math.min(ns, busyUntilNs - now) : 0;
      now += ns;
    }

    long await() throws InterruptedException {
      return JitQuiet.await(() -> runTime, () -> now, this::sleep, 50 * MS, 2_000 * MS);
    }
  }

  @Test
  void idleCompilersCostTheQuietPeriodOnly() throws InterruptedException {
    assertThat(new FakeJvm(0).await()).isEqualTo(50 * MS);
  }

  @Test
  void waitsUntilTheCompilersHaveBeenIdleForTheQuietPeriod() throws InterruptedException {
    // Busy for 300 ms: the last poll that saw them run ends at 300 ms, quiet from there.
    long waited = new FakeJvm(300 * MS).await();
    assertThat(waited).isBetween(350 * MS, 360 * MS);
  }

  @Test
  void compilersThatNeverSettleAreWaitedForAtMostTheLimit() throws InterruptedException {
    assertThat(new FakeJvm(Long.MAX_VALUE).await()).isBetween(2_000 * MS, 2_010 * MS);
  }

  @Test
  void sumsTheRunTimeOfTheCompilerThreadsOnly(@TempDir Path tasks) throws Exception {
    thread(tasks, "101", "C2 CompilerThre", "7000000 123 45");
    thread(tasks, "102", "C1 CompilerThre", "500000 1 2");
    thread(tasks, "103", "main", "999999999 1 1");
    thread(tasks, "104", "GC Thread#0", "888888888 1 1");
    List<Path> compilers = JitQuiet.compilerSchedstats(tasks);
    assertThat(compilers).containsExactlyInAnyOrder(tasks.resolve("101/schedstat"), tasks.resolve("102/schedstat"));
    assertThat(JitQuiet.runTimeNs(compilers)).isEqualTo(7_500_000);
  }

  @Test
  void aCompilerThreadThatHasEndedCountsNothing(@TempDir Path tasks) throws Exception {
    thread(tasks, "101", "C2 CompilerThre", "7000000 123 45");
    thread(tasks, "102", "C2 CompilerThre", "300 1 2");
    List<Path> compilers = JitQuiet.compilerSchedstats(tasks);
    Files.delete(tasks.resolve("102/schedstat"));
    assertThat(JitQuiet.runTimeNs(compilers)).isEqualTo(7_000_000);
  }

  @Test
  void noCompilerThreadOrNoProcReadsAsEmpty(@TempDir Path tasks) throws Exception {
    thread(tasks, "1", "main", "1 1 1");
    assertThat(JitQuiet.compilerSchedstats(tasks)).isEmpty();
    assertThat(JitQuiet.compilerSchedstats(tasks.resolve("missing"))).isEmpty();
  }

  @Test
  void thisJvmsCompilersAreFoundAndCounted() throws InterruptedException {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
    List<Path> compilers = JitQuiet.compilerSchedstats(Path.of("/proc/self/task"));
    assertThat(compilers).isNotEmpty();
    assertThat(JitQuiet.runTimeNs(compilers)).isPositive(); // this test JVM has compiled something by now
    long waited = JitQuiet.await();
    assertThat(waited).isBetween(JitQuiet.QUIET.toNanos(), JitQuiet.AT_MOST.toNanos() + Duration.ofMillis(200).toNanos());
  }

  private static void thread(Path tasks, String tid, String comm, String schedstat) throws Exception {
    Path dir = Files.createDirectories(tasks.resolve(tid));
    Files.writeString(dir.resolve("comm"), comm + "\n");
    Files.writeString(dir.resolve("schedstat"), schedstat + "\n");
  }
}
