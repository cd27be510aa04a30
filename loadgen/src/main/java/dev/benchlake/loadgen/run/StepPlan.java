package dev.benchlake.loadgen.run;

/**
 * How long a step runs: a warm-up, then either a number of measured tasks or a measured duration.
 *
 * @param tasks measured tasks of the step (all clients together), or null for a timed step
 * @param durationNs measured duration, or 0 for a step of {@code tasks}
 * @param warmupNs warm-up before the measurement; tasks intended to start in it are marked
 */
public record StepPlan(Long tasks, long durationNs, long warmupNs) {
  public StepPlan {
    if ((tasks == null) == (durationNs <= 0)) {
      throw new IllegalArgumentException("a step runs for a number of tasks or for a duration");
    }
  }

  public boolean timed() {
    return tasks == null;
  }
}
