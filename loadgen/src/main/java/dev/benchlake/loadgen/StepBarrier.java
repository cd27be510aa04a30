package dev.benchlake.loadgen;

/**
 * Holds each step until it may start, and says when: a duet's two runs (each its own process)
 * start every step at the same instant, whatever each took to get there (a JVM start, a server
 * start, loading the tables, the previous step's table-health snapshot), so that both are counted
 * over the same window. Without one ({@link #NONE}) a step starts as soon as the previous one is
 * done.
 */
public interface StepBarrier {
  /** {@link #awaitStart}'s answer for "start now". */
  long NOW = Long.MIN_VALUE;

  /** Start every step at once. */
  StepBarrier NONE = (index, step) -> NOW;

  /**
   * Blocks until step {@code index} ({@code step} by name) may start.
   *
   * @return the instant it starts, in ns since the epoch (UTC; it may lie a little ahead, so that
   *     every side has received it in time), or {@link #NOW}
   * @throws InterruptedException when the wait was interrupted
   * @throws java.io.IOException when whoever holds the barrier went away; the run then stops
   */
  long awaitStart(int index, String step) throws InterruptedException, java.io.IOException;
}
