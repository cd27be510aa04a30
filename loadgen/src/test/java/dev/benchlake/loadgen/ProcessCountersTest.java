package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * /proc's CPU times and context switches, read as {@link StepResourceRecorder} reads them: a
 * child that did its work and exited during the window still counts (in its parent's cutime),
 * and a thread that exited keeps its last sampled context switches.
 */
class ProcessCountersTest {
  @Test
  void aStatLineParsesWhateverTheCommandNameHolds() {
    // Fields after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice threads itrealvalue starttime ...
    String line = "4242 (postgres: a) b) S 4000 4242 4242 0 -1 4194560 10 0 0 0 "
        + "123 45 6 7 20 0 1 0 98765 1000 10";
    ProcessCounters.Stat s = ProcessCounters.parseStat(line);
    assertThat(s).isEqualTo(new ProcessCounters.Stat(4242, 4000, 123, 45, 6, 7, 98765));
  }

  @Test
  void contextSwitchesParseFromAStatusFile() {
    assertThat(ProcessCounters.parseSwitches("Name:\tjava\nvoluntary_ctxt_switches:\t17\n"
        + "nonvoluntary_ctxt_switches:\t3\n")).containsExactly(17, 3);
  }

  /**
   * A tree whose CPU-heavy child exits inside the window: the tree's CPU time rises by at least
   * the child's (here ~0.2-0.5 CPU-s of shell arithmetic), though the child is gone at the end.
   */
  @Test
  void aChildThatExitedDuringTheWindowCountsInItsParentsChildTimes() throws Exception {
    assumeTrue(ProcessCounters.self().isPresent(), "Linux /proc");
    Process parent = new ProcessBuilder("sh", "-c",
        "read go; (i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done); echo done; read end").start();
    try {
      ProcessCounters tree = ProcessCounters.tree(parent.pid()).orElseThrow();
      ProcessCounters.Cpu before = tree.cpu();
      parent.getOutputStream().write("go\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      parent.getOutputStream().flush();
      String done = new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream(),
          java.nio.charset.StandardCharsets.UTF_8)).readLine();
      assertThat(done).isEqualTo("done");
      ProcessCounters.Cpu after = tree.cpu();
      long ns = after.userNs() + after.systemNs() - before.userNs() - before.systemNs();
      assertThat(ns).as("the exited subshell's CPU time, in its parent's cutime").isGreaterThanOrEqualTo(100_000_000L);
    } finally {
      parent.destroy();
      parent.waitFor(5, TimeUnit.SECONDS);
    }
  }

  /** A thread that switched and exited keeps its count; the reset starts a new count. */
  @Test
  void aThreadThatExitedKeepsItsLastSampledContextSwitches() throws Exception {
    ProcessCounters self = ProcessCounters.self().orElse(null);
    assumeTrue(self != null, "Linux /proc");
    self.resetSwitches();
    self.sampleSwitches();
    long start = self.switches()[0];
    java.util.concurrent.CountDownLatch sampled = new java.util.concurrent.CountDownLatch(1);
    Thread t = new Thread(() -> {
      for (int i = 0; i < 50; i++) {
        try {
          Thread.sleep(1); // each sleep is a voluntary switch
        } catch (InterruptedException e) {
          return;
        }
      }
      try {
        self.sampleSwitches();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      sampled.countDown();
    });
    t.start();
    sampled.await();
    t.join();
    self.sampleSwitches(); // the thread is gone: its last sample stands
    assertThat(self.switches()[0] - start).isGreaterThanOrEqualTo(50);
    self.resetSwitches();
    assertThat(self.switches()).containsExactly(0, 0);
  }
}
