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
          + "each side's cgroup cpuset group where one can be made (root or a delegated cgroup), else each of its "
          + "threads (sched_setaffinity, any user), said on stderr; in-window-cgroup, in-window-affinity: by that "
          + "way only; per-round: between rounds only; auto (default): in-window where this machine allows it, "
          + "else per-round, said on stderr. Each run's labels say which (cpu_swap, cpu_swap_mover).")
  String cpuSwap;

  @Option(names = "--swap-period", paramLabel = "DURATION", converter = SwapRule.Converter.class,
      description = "A duet swapping CPU sets in-window: how often inside every step, from "
          + SwapRule.MIN_PERIOD + " to " + SwapRule.MAX_PERIOD + ", recorded in each run's labels (default: "
          + SwapRule.DEFAULT_PERIOD + ").")
  Duration swapPeriod;

  @Option(names = "--durable-commits", description = "A duet: keep the embedded servers' commits durable "
      + "(synchronous_commit=on). By default a duet runs both sides with synchronous_commit=off: they share this "
      + "machine's one disk, and with durable commits both wait on its flushes, so write steps measure the disk "
      + "rather than the servers. A side's own synchronous_commit setting wins either way.")
  boolean durableCommits;

  public int aaRounds() {
    return aaRounds;
  }

  /**
   * An embedded side's server settings in this design ({@link SharedDisk#settings} in a duet).
   *
   * @param duet whether the command runs a duet
   * @param user the side's settings as the user gave them
   * @throws BadInputException for --durable-commits without a duet (the other designs' commits are durable)
   */
  public java.util.Map<String, String> serverSettings(boolean duet, java.util.Map<String, String> user) {
    if (!duet) {
      if (durableCommits) {
        throw new BadInputException("--durable-commits goes with --design duet (the other designs' commits are "
            + "durable)");
      }
      return user;
    }
    return SharedDisk.settings(user, durableCommits);
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
    if (swapPeriod != null && CpuSwap.PER_ROUND.id().equalsIgnoreCase(cpuSwap)) {
      throw new BadInputException("--swap-period goes with --cpu-swap in-window: per-round swaps between rounds only");
    }
    java.io.PrintWriter err = dev.benchlake.core.TerminalText.escaping(
        new java.io.OutputStreamWriter(System.err, java.nio.charset.StandardCharsets.UTF_8));
    SwapRule swap = CpuSwap.resolve(cpuSwap, swapPeriod != null ? swapPeriod : SwapRule.defaultPeriod(), err);
    if (swap.mover() != SwapMover.CGROUP) {
      SideCommand.requireTaskset(); // a side not in a group starts pinned by taskset
    }
    if (durableCommits) {
      err.println(SharedDisk.notice(true));
      err.flush();
    }
    return cpus.withSwap(swap);
  }
}
