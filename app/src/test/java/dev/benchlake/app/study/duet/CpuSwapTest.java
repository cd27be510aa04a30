package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 46: which way {@code --cpu-swap} swaps here. A plain user, who cannot make a cpuset group,
 * now gets the in-window swap by each thread's affinity, said in one line (it got the swap between
 * rounds only); root keeps cgroup groups unless it asks for affinity; a mode that cannot run is one line.
 */
class CpuSwapTest {
  private static final Duration P = Duration.ofMillis(100);
  private static final CgroupCpusets.Found NO_GROUPS = new CgroupCpusets.Found(Optional.empty(),
      "cannot make a cpuset group in /sys/fs/cgroup/user.slice (Permission denied): it takes root, or a delegated "
          + "cgroup subtree");
  private static final CgroupCpusets.Found GROUPS = new CgroupCpusets.Found(
      Optional.of(new CgroupCpusets(Path.of("/sys/fs/cgroup"), true)), "cgroup v2 cpuset groups in /sys/fs/cgroup");
  private static final Optional<String> AFFINITY = Optional.empty();
  private static final Optional<String> NO_AFFINITY = Optional.of("JNA cannot call libc here (no libc)");

  @Test
  void aPlainUserSwapsInsideTheWindowByAffinityAndSaysSo() {
    StringWriter log = new StringWriter();
    for (String mode : new String[] {"auto", "in-window", null}) {
      SwapRule rule = CpuSwap.resolve(mode, P, new PrintWriter(log), () -> NO_GROUPS, AFFINITY);
      assertThat(rule).isEqualTo(new SwapRule(CpuSwap.IN_WINDOW, SwapMover.AFFINITY, P));
    }
    assertThat(log.toString().lines()).hasSize(3).allMatch(l -> l.equals("duet: the sides swap CPU sets inside each "
        + "step by moving each of their threads (sched_setaffinity), as no cgroup cpuset group can be made here ("
        + NO_GROUPS.why() + ")"));
  }

  @Test
  void rootKeepsGroupsUnlessItAsksForAffinity() {
    StringWriter log = new StringWriter();
    assertThat(CpuSwap.resolve("auto", P, new PrintWriter(log), () -> GROUPS, AFFINITY).mover())
        .isEqualTo(SwapMover.CGROUP);
    assertThat(CpuSwap.resolve("in-window-cgroup", P, new PrintWriter(log), () -> GROUPS, AFFINITY).mover())
        .isEqualTo(SwapMover.CGROUP);
    assertThat(CpuSwap.resolve("IN-WINDOW-AFFINITY", P, new PrintWriter(log), () -> GROUPS, AFFINITY))
        .isEqualTo(new SwapRule(CpuSwap.IN_WINDOW, SwapMover.AFFINITY, P));
    assertThat(CpuSwap.resolve("per-round", P, new PrintWriter(log), () -> GROUPS, AFFINITY))
        .isEqualTo(SwapRule.PER_ROUND);
    assertThat(log.toString()).isEmpty();
  }

  @Test
  void aModeThatCannotRunHereIsBadInputAndAutoFallsBackToPerRound() {
    PrintWriter quiet = new PrintWriter(new StringWriter());
    assertThatThrownBy(() -> CpuSwap.resolve("in-window-cgroup", P, quiet, () -> NO_GROUPS, AFFINITY))
        .isInstanceOf(BadInputException.class).hasMessage("--cpu-swap in-window-cgroup moves each side with a cgroup "
            + "cpuset group, and " + NO_GROUPS.why());
    assertThatThrownBy(() -> CpuSwap.resolve("in-window-affinity", P, quiet, () -> GROUPS, NO_AFFINITY))
        .isInstanceOf(BadInputException.class).hasMessage("--cpu-swap in-window-affinity moves each side's threads "
            + "with sched_setaffinity, and JNA cannot call libc here (no libc)");
    assertThatThrownBy(() -> CpuSwap.resolve("in-window", P, quiet, () -> NO_GROUPS, NO_AFFINITY))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("--cpu-swap in-window moves each side with");
    assertThatThrownBy(() -> CpuSwap.resolve("sometimes", P, quiet, () -> GROUPS, AFFINITY))
        .isInstanceOf(BadInputException.class).hasMessage("--cpu-swap 'sometimes': give auto, in-window, "
            + "in-window-cgroup, in-window-affinity or per-round");
    StringWriter log = new StringWriter();
    assertThat(CpuSwap.resolve("auto", P, new PrintWriter(log), () -> NO_GROUPS, NO_AFFINITY))
        .isEqualTo(SwapRule.PER_ROUND);
    assertThat(log.toString()).startsWith("duet: the sides swap CPU sets between rounds only (");
  }
}
