package dev.benchlake.loadgen;

/**
 * What a run reports while it goes: set-up messages, the start and end of each step, and about
 * once a second a {@link Progress} snapshot. Called from the run's own thread; implementations
 * should return quickly.
 */
public interface ProgressListener {
  /** A listener that ignores everything. */
  ProgressListener NONE = new ProgressListener() {};

  /** A set-up or fault message, e.g. "loading table_a: 10 x 100000 rows (COPY)". */
  default void onMessage(String message) {}

  /** Step {@code index} (from 0) of {@code count} starts. */
  default void onStepStart(String step, int index, int count) {}

  default void onProgress(Progress progress) {}

  default void onStepEnd(StepResult result) {}

  /**
   * One snapshot of the running step.
   *
   * @param step the step's name
   * @param warmup whether the step is still warming up
   * @param elapsedS seconds since the step started
   * @param attempts tasks attempted so far in the step (warm-up included)
   * @param errors of which failed
   * @param tasksPerSecond attempts per second over the last interval
   * @param p50Ns median latency of the measured successful tasks so far (0 before any)
   * @param p99Ns 99th percentile of the same
   */
  record Progress(String step, boolean warmup, double elapsedS, long attempts, long errors, double tasksPerSecond,
      long p50Ns, long p99Ns) {}
}
