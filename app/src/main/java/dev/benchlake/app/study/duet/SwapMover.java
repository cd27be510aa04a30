package dev.benchlake.app.study.duet;

/**
 * How the in-window swap ({@link InWindowCpuSwap}) moves a side between CPU sets: by its cgroup
 * cpuset group (one write moves every process in it; root or a delegated subtree), or by each of its
 * threads' affinity ({@link AffinityMover}: {@code sched_setaffinity} on every thread of its JVM and
 * of its servers' processes, which any user may do to its own).
 */
public enum SwapMover {
  CGROUP("cgroup"),
  AFFINITY("affinity");

  /**
   * The label an in-window run carries with {@link #id()}. An in-window run without it was moved by
   * cgroup groups, the only way there was before the label.
   */
  public static final String LABEL = "cpu_swap_mover";

  private final String id;

  SwapMover(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /** How it moves a side, for the study's words and study.json. */
  public String inWords() {
    return this == CGROUP ? "by cgroup cpuset groups" : "by each thread's CPU affinity (sched_setaffinity)";
  }
}
