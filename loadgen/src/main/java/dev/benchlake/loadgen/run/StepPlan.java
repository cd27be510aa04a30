package dev.benchlake.loadgen.run;

/**
 * How long a step runs: a warm-up, then a number of measured tasks, a measured duration, or one
 * pass of a fixed number of tasks per client.
 *
 * @param tasks measured tasks of the step (all clients together), or null
 * @param durationNs measured duration, or 0 for a step that is not timed
 * @param warmupNs warm-up before the measurement; tasks intended to start in it are marked
 * @param tasksPerClient one pass: each client runs exactly this many tasks and the step ends when
 *     all have (mytools' scan: every table once), or null
 */
public record StepPlan(Long tasks, long durationNs, long warmupNs, Integer tasksPerClient) {
  public StepPlan {
    int kinds = (tasks != null ? 1 : 0) + (durationNs > 0 ? 1 : 0) + (tasksPerClient != null ? 1 : 0);
    if (kinds != 1) {
      throw new IllegalArgumentException("a step runs for a number of tasks, for a duration or one pass per client");
    }
  }

  /** A step of {@code tasks} or of {@code durationNs}. */
  public StepPlan(Long tasks, long durationNs, long warmupNs) {
    this(tasks, durationNs, warmupNs, null);
  }

  /** One pass without warm-up: each client runs {@code tasksPerClient} tasks. */
  public static StepPlan onePass(int tasksPerClient) {
    return new StepPlan(null, 0, 0, tasksPerClient);
  }

  public boolean timed() {
    return durationNs > 0;
  }

  public boolean onePass() {
    return tasksPerClient != null;
  }
}
