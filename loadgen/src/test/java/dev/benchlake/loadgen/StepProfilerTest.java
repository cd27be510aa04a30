package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.raw.StepProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --profile}'s profiler without a server: perf's report read as the manifest keeps it, a
 * missing perf recorded as not profiled (the run goes on), and, where perf is installed and
 * allowed, a real profile of a busy process tree (skipped cleanly elsewhere).
 */
class StepProfilerTest {
  /** perf 6.1's {@code report --stdio --no-children --sort dso,sym -g none}, as written on this machine. */
  private static final String REPORT = String.join("\n",
      "# To display the perf.data header info, please use --header/--header-only options.",
      "#",
      "# Total Lost Samples: 0",
      "#",
      "# Samples: 1K of event 'cpu-clock:ppp'",
      "# Event count (approx.): 20202020",
      "#",
      "# Overhead  Shared Object         Symbol",
      "# ........  ....................  .................................",
      "#",
      "    41.50%  postgres              [.] hash_search_with_hash_value",
      "     9.25%  [kernel.kallsyms]     [k] finish_task_switch.isra.0",
      "     0.75%  libc.so.6             [.] __memcpy_avx_unaligned_erms",
      "     0.50%  postgres              [.] 0x00000000004a1b2c",
      "",
      "#",
      "# (Tip: To change sampling frequency to 100 Hz: perf record -F 100)",
      "#");

  @Test
  void aReportsLinesBecomeSymbolsWithTheirSharesInItsOrder() {
    assertThat(StepProfiler.symbols(REPORT)).containsExactly(
        new StepProfile.Symbol(41.5, "postgres", "hash_search_with_hash_value"),
        new StepProfile.Symbol(9.25, "[kernel.kallsyms]", "finish_task_switch.isra.0"),
        new StepProfile.Symbol(0.75, "libc.so.6", "__memcpy_avx_unaligned_erms"),
        new StepProfile.Symbol(0.5, "postgres", "0x00000000004a1b2c"));
    assertThat(StepProfiler.samples(REPORT)).isEqualTo(1_000L);
    assertThat(StepProfiler.samples("# Samples: 412  of event 'cycles:u'")).isEqualTo(412L);
    assertThat(StepProfiler.fileName("point-query.warm_range=100")).isEqualTo("point-query.warm_range=100");
    assertThat(StepProfiler.fileName("a/b c")).isEqualTo("a_b_c");
  }

  @Test
  void withoutPerfTheStepIsNotProfiledAndSaysWhy(@TempDir Path run) {
    StepProfiler profiler = new StepProfiler(null, 99, run);
    profiler.start("point-select", List.of(ProcessHandle.current().pid()));
    profiler.stop();
    StepProfile p = profiler.profile("point-select");
    assertThat(p.notProfiled()).startsWith("perf not found on the PATH");
    assertThat(p.data()).isNull();
    assertThat(run.resolve(StepProfiler.DIR)).doesNotExist();
  }

  /**
   * A shell spinning for the window (2 s: perf itself takes a few hundred ms to attach on a loaded
   * machine): its profile names the shell's binary, the C library it spends its loop in (all of
   * the top 10 on an idle machine), or the kernel among the top symbols, with
   * shares that add up to at most 100 %, and its files are beside the run.
   */
  @Test
  void aBusyProcessTreesProfileIsKeptBesideTheRunWithItsTopSymbols(@TempDir Path run) throws Exception {
    StepProfiler profiler = StepProfiler.open(StepProfiler.DEFAULT_HZ, run);
    Process spin = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 100000000 ]; do i=$((i+1)); done").start();
    try {
      profiler.start("spin step", List.of(spin.pid()));
      Thread.sleep(2_000);
      profiler.stop();
    } finally {
      spin.destroy();
      spin.waitFor(5, TimeUnit.SECONDS);
    }
    StepProfile p = profiler.profile("spin step");
    assumeTrue(p.notProfiled() == null || !(p.notProfiled().startsWith("perf not found")
        || p.notProfiled().contains("perf_event_paranoid")), "perf installed and allowed here: " + p.notProfiled());
    assertThat(p.notProfiled()).as("perf ran").isNull();
    assertThat(p.data()).isEqualTo("profiles/spin_step.perf.data");
    assertThat(run.resolve(p.data())).isNotEmptyFile();
    assertThat(p.samples()).isPositive();
    assertThat(p.hz()).isEqualTo(StepProfiler.DEFAULT_HZ);
    assertThat(p.top()).isNotEmpty().hasSizeLessThanOrEqualTo(StepProfiler.TOP);
    assertThat(p.top().stream().mapToDouble(StepProfile.Symbol::share).sum()).isBetween(1.0, 100.01);
    assertThat(p.top()).extracting(StepProfile.Symbol::dso).anyMatch(d -> d.contains("sh") || d.startsWith("libc") || d.contains("kernel"));
    String summary = Files.readString(run.resolve(p.summary()), StandardCharsets.UTF_8);
    assertThat(summary).startsWith("# spin step: ").contains(p.top().get(0).symbol());
    assertThat(run.resolve("profiles/spin_step.perf.log")).doesNotExist();
  }
}
