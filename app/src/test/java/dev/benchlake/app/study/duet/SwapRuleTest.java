package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.CpuList;
import dev.benchlake.loadgen.LoadgenConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The in-window swap's period (issue 45): {@code --swap-period} reaches every run's labels, the
 * study's first line and study.json's words, instead of a hidden system property read in three
 * places; a run swapped between rounds carries no period.
 */
class SwapRuleTest {
  private static final DuetCpus HALVES = DuetCpus.choose(CpuList.parse("0-3"), null, null);

  private static SideRun side() {
    LoadgenConfig config = LoadgenConfig.builder().target(new LoadgenConfig.Embedded(17, Map.of(), null))
        .workload("sysbench").steps(List.of("point-select")).tables(1).tableSize(1000)
        .mode(LoadgenConfig.Mode.closed(2)).duration(Duration.ofSeconds(1)).warmup(Duration.ZERO).randomSeed(7L)
        .environment(Map.of()).outDir(Path.of("/s/runs/r1-a")).build();
    return new SideRun("a", config, HALVES.one());
  }

  @Test
  void anInWindowRunIsLabelledWithItsPeriodAndAPerRoundRunWithItsModeAlone() {
    SwapRule fifty = new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, Duration.ofMillis(50));
    assertThat(DuetPair.labelled(side(), fifty).config().labels())
        .containsEntry(SwapRule.MODE_LABEL, "in-window").containsEntry(SwapRule.PERIOD_LABEL, "50");
    assertThat(DuetPair.labelled(side(), new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, Duration.ofMillis(12_500).dividedBy(100)))
        .config().labels()).containsEntry(SwapRule.PERIOD_LABEL, "125");
    assertThat(DuetPair.labelled(side(), SwapRule.PER_ROUND).config().labels())
        .containsEntry(SwapRule.MODE_LABEL, "per-round").doesNotContainKey(SwapRule.PERIOD_LABEL)
        .doesNotContainKey(SwapRule.MOVER_LABEL);
  }

  /**
   * Issue 46: an in-window run says how its sides were moved, {@code cpu_swap_mover} cgroup or
   * affinity, beside {@code cpu_swap=in-window}, which both keep (an in-window run without the
   * mover's label, from before it, was moved by cgroup groups); a mover goes with in-window only.
   */
  @Test
  void anInWindowRunIsLabelledWithItsMover() {
    assertThat(DuetPair.labelled(side(), new SwapRule(CpuSwap.IN_WINDOW, SwapMover.AFFINITY, Duration.ofMillis(100)))
        .config().labels()).containsEntry(SwapRule.MODE_LABEL, "in-window").containsEntry(SwapRule.PERIOD_LABEL, "100")
        .containsEntry(SwapRule.MOVER_LABEL, "affinity").containsEntry("cpu_swap_mover", "affinity");
    assertThat(DuetPair.labelled(side(), new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, Duration.ofMillis(100)))
        .config().labels()).containsEntry(SwapRule.MOVER_LABEL, "cgroup");
    assertThatThrownBy(() -> new SwapRule(CpuSwap.IN_WINDOW, null, Duration.ofMillis(100)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SwapRule(CpuSwap.PER_ROUND, SwapMover.AFFINITY, Duration.ofMillis(100)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theStudysWordsSayThePeriodItRunsWith() {
    assertThat(HALVES.withSwap(new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, Duration.ofMillis(250))).swapInWords())
        .isEqualTo("swapped every round, and every 250 ms inside each step by cgroup cpuset groups");
    assertThat(HALVES.withSwap(new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, SwapRule.defaultPeriod())).swapInWords())
        .isEqualTo("swapped every round, and every 100 ms inside each step by cgroup cpuset groups");
    assertThat(HALVES.withSwap(new SwapRule(CpuSwap.IN_WINDOW, SwapMover.AFFINITY, SwapRule.defaultPeriod()))
        .swapInWords()).isEqualTo("swapped every round, and every 100 ms inside each step by each thread's CPU "
            + "affinity (sched_setaffinity)");
    assertThat(HALVES.swapInWords()).isEqualTo("swapped every round");
  }

  @Test
  void aPeriodOutsideItsRangeIsRefusedWhereverItComesFrom() {
    assertThat(new SwapRule.Converter().convert("10ms")).isEqualTo(Duration.ofMillis(10));
    assertThat(new SwapRule.Converter().convert("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThatThrownBy(() -> new SwapRule.Converter().convert("9ms")).hasMessage("'9ms' is not from 10ms to 10s");
    assertThatThrownBy(() -> new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
