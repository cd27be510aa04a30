package dev.benchlake.loadgen.workload;

import java.sql.SQLException;
import java.util.SplittableRandom;

/**
 * Runs tasks of one step on one connection. Not thread-safe: one per client. A task either
 * completes or throws; the caller records it either way and, after a failure, rolls back or
 * replaces the connection.
 */
public interface TaskRunner extends AutoCloseable {
  /**
   * Runs one task.
   *
   * @param task index into {@link Step#taskNames()}
   * @param random this client's random source (parameters)
   */
  void run(int task, SplittableRandom random) throws SQLException;

  /** Closes the prepared statements; never throws. */
  @Override
  void close();
}
