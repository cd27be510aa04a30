package dev.benchlake.app.study.duet;

import dev.benchlake.core.cli.BadInputException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * When a duet's sides swap CPU sets: inside every window ({@link InWindowCpuSwap}, moving each side
 * by its cgroup cpuset group or by its threads' affinity: {@link SwapMover}), or only between rounds
 * (each side pinned with {@code taskset} for its whole run).
 */
public enum CpuSwap {
  IN_WINDOW("in-window"),
  PER_ROUND("per-round");

  /** The label a duet's runs carry, with {@link #id()}: how their CPU sets were swapped. */
  public static final String LABEL = "cpu_swap";
  /** {@code --cpu-swap}'s values: in-window by whichever mover works here, or by the one named. */
  public static final String AUTO = "auto";
  public static final String IN_WINDOW_CGROUP = "in-window-cgroup";
  public static final String IN_WINDOW_AFFINITY = "in-window-affinity";

  private final String id;

  CpuSwap(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /**
   * What {@code --cpu-swap} asks for on this machine. {@code auto} and {@code in-window} swap inside
   * the window by cgroup cpuset groups where they can be made, else by the threads' affinity (said
   * on {@code log}, with why); {@code auto} falls back to per-round where neither works (said).
   * {@code in-window-cgroup} and {@code in-window-affinity} take that mover or none: the second lets
   * root run, and test, what a plain user gets.
   *
   * @throws BadInputException for an unknown mode, or an in-window mode that cannot run here
   */
  public static SwapRule resolve(String requested, Duration period, PrintWriter log) {
    return resolve(requested, period, log, CgroupCpusets::forThisProcess, ThreadAffinity.unavailable());
  }

  /**
   * @param cgroups what this machine's cgroups allow
   * @param noAffinity why threads cannot be moved here, or empty
   */
  static SwapRule resolve(String requested, Duration period, PrintWriter log,
      Supplier<CgroupCpusets.Found> cgroups, Optional<String> noAffinity) {
    String mode = requested == null ? AUTO : requested.toLowerCase(Locale.ROOT);
    switch (mode) {
      case "per-round":
        return SwapRule.PER_ROUND;
      case IN_WINDOW_AFFINITY:
        if (noAffinity.isPresent()) {
          throw new BadInputException("--cpu-swap " + IN_WINDOW_AFFINITY + " moves each side's threads with "
              + "sched_setaffinity, and " + noAffinity.get());
        }
        return new SwapRule(IN_WINDOW, SwapMover.AFFINITY, period);
      case IN_WINDOW_CGROUP, "in-window", AUTO:
        break;
      default:
        throw new BadInputException("--cpu-swap '" + requested + "': give auto, in-window, " + IN_WINDOW_CGROUP + ", "
            + IN_WINDOW_AFFINITY + " or per-round");
    }
    CgroupCpusets.Found found = cgroups.get();
    if (found.cpusets().isPresent()) {
      return new SwapRule(IN_WINDOW, SwapMover.CGROUP, period);
    }
    if (mode.equals(IN_WINDOW_CGROUP)) {
      throw new BadInputException("--cpu-swap " + IN_WINDOW_CGROUP + " moves each side with a cgroup cpuset group, "
          + "and " + found.why());
    }
    if (noAffinity.isEmpty()) {
      log.println("duet: the sides swap CPU sets inside each step by moving each of their threads "
          + "(sched_setaffinity), as no cgroup cpuset group can be made here (" + found.why() + ")");
      log.flush();
      return new SwapRule(IN_WINDOW, SwapMover.AFFINITY, period);
    }
    if (mode.equals(IN_WINDOW.id)) {
      throw new BadInputException("--cpu-swap in-window moves each side with a cgroup cpuset group, and "
          + found.why() + "; or with sched_setaffinity, and " + noAffinity.get());
    }
    log.println("duet: the sides swap CPU sets between rounds only (" + found.why() + "; " + noAffinity.get()
        + "); a virtual CPU whose speed drifts then widens the intervals (docs/designs.md)");
    log.flush();
    return SwapRule.PER_ROUND;
  }
}
