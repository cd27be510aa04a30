package dev.benchlake.core.raw;

/**
 * One attempted task of a loadgen run: one line of {@code tasks.csv}.
 *
 * <p>All times are nanoseconds relative to the run's monotonic origin (whose wall-clock instant is
 * {@link RunManifest#originEpochNs()}):
 *
 * <ul>
 *   <li>{@code intendedStartNs}: when the task should have started: its slot in an open-loop
 *       schedule, its submission in a burst, or (closed loop) the moment its client became free.
 *       Latency is measured from here, so a stalled server or a saturated pool shows up as latency
 *       instead of silently delaying the next task (no coordinated omission).
 *   <li>{@code startNs}: when it began executing on a connection. For a task that never got a
 *       connection (pool timeout) it equals {@code endNs}.
 *   <li>{@code endNs}: when it completed or failed.
 *   <li>{@code waitNs}: the part of {@code startNs - intendedStartNs} spent waiting for a pooled
 *       connection.
 * </ul>
 *
 * @param step the workload step, e.g. {@code point-select}
 * @param clientId the client (connection or worker) that ran it, from 0
 * @param seq the task's sequence number within its client, from 0
 * @param warmup whether it ran during the step's warm-up (recorded, excluded from statistics)
 * @param ok whether it succeeded
 * @param sqlstate the five-character SQLSTATE of a failure, or empty
 * @param error a one-line error message, or empty; never contains a password
 */
public record TaskRecord(
    String step,
    int clientId,
    long seq,
    long intendedStartNs,
    long startNs,
    long endNs,
    long waitNs,
    boolean warmup,
    boolean ok,
    String sqlstate,
    String error) {

  public TaskRecord {
    sqlstate = sqlstate == null ? "" : sqlstate;
    error = error == null ? "" : error;
  }

  /** What the user waited: from the intended start to the end. */
  public long latencyNs() {
    return endNs - intendedStartNs;
  }

  /** What the server (and the network) took: from the actual start to the end. */
  public long serviceNs() {
    return endNs - startNs;
  }
}
