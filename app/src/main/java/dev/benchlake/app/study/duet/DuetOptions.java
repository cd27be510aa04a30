package dev.benchlake.app.study.duet;

import dev.benchlake.core.cli.BadInputException;
import java.time.Duration;
import picocli.CommandLine.Option;

/** A duet's options, shared by every command that runs one ({@code study ab}, {@code study versions}, quickstart). */
public final class DuetOptions {
  /**
   * {@link dev.benchlake.analysis.compare.AaControl#DEFAULT_ROUNDS}, not the fewest: a sound method's
   * control must come out equivalent (simulated with the SDs measured on a 2-core VM: 99.8 % of
   * studies at 6 rounds, 85 % at 4, about 30 % at 2).
   */
  private static final String DEFAULT_AA_ROUNDS = "" + dev.benchlake.analysis.compare.AaControl.DEFAULT_ROUNDS;

  @Option(names = "--aa-rounds", paramLabel = "N", converter = RoundsConverter.class, defaultValue = DEFAULT_AA_ROUNDS,
      description = "A duet's a/a control rounds (both sides the baseline), at least 2; with fewer than 6 a sound "
          + "method's control often comes out too short to confirm it (default: ${DEFAULT-VALUE}).")
  int aaRounds;

  @Option(names = "--cpus-a", paramLabel = "LIST", description = "A duet: side a's (the baseline's) CPU set in its "
      + "first round, e.g. 0-3 (default: the first half of this process's CPUs; the sides swap sets every round, "
      + "--cpu-swap).")
  String cpusA;

  @Option(names = "--cpus-b", paramLabel = "LIST", description = "A duet: side b's CPU set in its first round "
      + "(default: the CPUs --cpus-a leaves).")
  String cpusB;

  @Option(names = "--cpu-swap", paramLabel = "MODE", defaultValue = "auto",
      description = "A duet: when the sides swap CPU sets. in-window: every --swap-period of every step, by moving "
          + "each side's cgroup cpuset group (needs root or a delegated cgroup); per-round: between rounds only; auto "
          + "(default): in-window where this machine allows it, else per-round, said on stderr.")
  String cpuSwap;

  @Option(names = "--swap-period", paramLabel = "DURATION", converter = SwapRule.Converter.class,
      description = "A duet swapping CPU sets in-window: how often inside every step, from "
          + SwapRule.MIN_PERIOD + " to " + SwapRule.MAX_PERIOD + ", recorded in each run's labels (default: "
          + SwapRule.DEFAULT_PERIOD + ").")
  Duration swapPeriod;

  public int aaRounds() {
    return aaRounds;
  }

  /**
   * A duet's CPU sets and how they are swapped (taskset must be there for a swap per round), or null
   * for the other designs.
   *
   * @param duet whether the command runs a duet ({@code --design duet})
   * @throws BadInputException for CPU sets without a duet, a machine with one CPU, bad sets, no taskset
   */
  public DuetCpus cpus(boolean duet) {
    if (!duet) {
      if (cpusA != null || cpusB != null) {
        throw new BadInputException("--cpus-a and --cpus-b go with --design duet");
      }
      if (!"auto".equals(cpuSwap)) {
        throw new BadInputException("--cpu-swap goes with --design duet");
      }
      if (swapPeriod != null) {
        throw new BadInputException("--swap-period goes with --design duet");
      }
      return null;
    }
    DuetCpus cpus = DuetCpus.choose(DuetCpus.available(), cpusA, cpusB);
    CpuSwap swap = CpuSwap.resolve(cpuSwap, dev.benchlake.core.TerminalText.escaping(
        new java.io.OutputStreamWriter(System.err, java.nio.charset.StandardCharsets.UTF_8)));
    if (swap == CpuSwap.PER_ROUND) {
      if (swapPeriod != null && CpuSwap.PER_ROUND.id().equalsIgnoreCase(cpuSwap)) {
        throw new BadInputException("--swap-period goes with --cpu-swap in-window: per-round swaps between rounds only");
      }
      SideCommand.requireTaskset();
    }
    return cpus.withSwap(new SwapRule(swap, swapPeriod != null ? swapPeriod : SwapRule.defaultPeriod()));
  }
}
