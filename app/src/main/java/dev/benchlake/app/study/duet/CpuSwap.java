package dev.benchlake.app.study.duet;

import dev.benchlake.core.cli.BadInputException;
import java.util.Locale;

/**
 * When a duet's sides swap CPU sets: inside every window ({@link InWindowCpuSwap}, through cgroup
 * cpuset groups), or only between rounds (each side pinned with {@code taskset} for its whole run).
 */
public enum CpuSwap {
  IN_WINDOW("in-window"),
  PER_ROUND("per-round");

  /** The label a duet's runs carry, with {@link #id()}: how their CPU sets were swapped. */
  public static final String LABEL = "cpu_swap";

  private final String id;

  CpuSwap(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /**
   * What {@code --cpu-swap} asks for on this machine: {@code auto} is in-window where cpuset groups
   * can be made (said on {@code log}), per-round otherwise (said, with why).
   *
   * @throws BadInputException for an unknown mode, or {@code in-window} where groups cannot be made
   */
  public static CpuSwap resolve(String requested, java.io.PrintWriter log) {
    String mode = requested == null ? "auto" : requested.toLowerCase(Locale.ROOT);
    if (mode.equals(PER_ROUND.id)) {
      return PER_ROUND;
    }
    if (!mode.equals("auto") && !mode.equals(IN_WINDOW.id)) {
      throw new BadInputException("--cpu-swap '" + requested + "': give in-window, per-round or auto");
    }
    CgroupCpusets.Found found = CgroupCpusets.forThisProcess();
    if (found.cpusets().isPresent()) {
      return IN_WINDOW;
    }
    if (mode.equals(IN_WINDOW.id)) {
      throw new BadInputException("--cpu-swap in-window moves each side with a cgroup cpuset group, and " + found.why());
    }
    log.println("duet: the sides swap CPU sets between rounds only (" + found.why() + "); a virtual CPU whose "
        + "speed drifts then widens the intervals (docs/designs.md)");
    log.flush();
    return PER_ROUND;
  }
}
