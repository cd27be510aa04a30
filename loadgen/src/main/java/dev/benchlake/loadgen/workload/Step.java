package dev.benchlake.loadgen.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One step of a workload ({@code --steps a,b,c}): a kind of task, or a weighted mix of kinds
 * ({@code --script a.sql@3 --script b.sql@1}), run for its own warm-up and measurement.
 */
public interface Step {
  /** The step's name, e.g. {@code point-select}. */
  String name();

  /**
   * The names tasks of this step are recorded under (the {@code step} column of tasks.csv): the
   * step's own name, or one per script of a mix.
   */
  default List<String> taskNames() {
    return List.of(name());
  }

  /** Whether the step runs for the write duration ({@code --write-duration}) rather than the read one. */
  default boolean usesWriteDuration() {
    return false;
  }

  /**
   * A step of fixed work per client instead of a time or a task count: each client runs this many
   * tasks, then the step ends (mytools' scan: every table once). Empty for the others.
   */
  default java.util.OptionalInt tasksPerClient() {
    return java.util.OptionalInt.empty();
  }

  /**
   * The rows one task reads, when the step is counted in rows per second rather than in tasks
   * (mytools' scan: a table's rows); loadgen then records that figure as the step's
   * {@code qps}. Empty for the others.
   */
  default java.util.OptionalLong rowsPerTask() {
    return java.util.OptionalLong.empty();
  }

  /**
   * Maintenance the workload does once the step's tasks are done, outside any measurement (the
   * mytools study's vacuum and checkpoint after some steps). Nothing by default.
   *
   * @param progress one line for the user when it does something
   */
  default void afterTasks(Connection connection, java.util.function.Consumer<String> progress) throws SQLException {}

  /** Which of {@link #taskNames()} the next task is (by weight for a mix). */
  default int pickTask(SplittableRandom random) {
    return 0;
  }

  /**
   * Prepares this step's statements on {@code connection}.
   *
   * @param clientId the client using it, from 0 (steps that partition the key space use it)
   * @param clients how many clients run the step
   */
  TaskRunner open(Connection connection, int clientId, int clients) throws SQLException;
}
