package dev.benchlake.core.raw;

/**
 * When one step ran, as planned, in ns since the epoch (UTC) on the run's clock
 * ({@code step_windows} in the manifest): where it started, where its measurement began (after
 * the warm-up) and, for a timed step, where it ended. A task belongs to the measurement when its
 * intended start lies in {@code [measuredFromEpochNs, measuredToEpochNs)}; tasks intended before
 * are the warm-up ({@code warmup=true} in tasks.csv).
 *
 * <p>{@code shared}: the step started on a barrier together with another run (a duet's other
 * side), at the same instant: both runs' windows are then the same interval, up to the two
 * processes' readings of the one system clock, so that both are counted over exactly the same
 * time.
 *
 * @param step the step's name
 * @param startEpochNs the step's start (its warm-up's start)
 * @param measuredFromEpochNs the end of the warm-up
 * @param measuredToEpochNs the end of a timed step's measurement; absent for a step of a number of
 *     tasks, which ends when they are done
 * @param shared whether a barrier started it together with another run
 */
public record StepWindow(String step, long startEpochNs, long measuredFromEpochNs, Long measuredToEpochNs,
    boolean shared) {}
