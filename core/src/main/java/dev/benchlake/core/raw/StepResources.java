package dev.benchlake.core.raw;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One step's resource counters in the manifest ({@code step_resources}): CPU time and context
 * switches of the server's processes and of the client JVM, and PostgreSQL's WAL, block and
 * transaction counters, read before the step's connections opened and after they had left, with
 * the tasks that ran in between. {@link ResourceMetric} turns them into figures per operation.
 *
 * <p>The window is the whole step, warm-up included, and {@code tasks} counts the warm-up's tasks
 * too: PostgreSQL's statistics of a step's backends are complete only once they exit (a backend
 * flushes them at most once a second, and at exit), and an exited backend's CPU time only shows in
 * its postmaster's {@code cutime}/{@code cstime}, so the counters can be read exactly only before
 * the step's first connection and after its last one. The ratio stays a per-operation figure.
 *
 * @param step the step's name
 * @param taskNames the names its tasks are recorded under (the {@code step} of tasks.csv)
 * @param tasks the step's completed tasks, successful or not, warm-up included
 * @param counters the counters that could be read at both ends
 * @param notMeasured the counters that could not, each with why (a server by URL has no process
 *     here; {@code pg_stat_wal} needs PostgreSQL 14): absent, never zero
 */
public record StepResources(String step, List<String> taskNames, long tasks, List<ResourceCounter> counters,
    SortedMap<String, String> notMeasured) {

  public StepResources {
    taskNames = taskNames == null ? List.of() : List.copyOf(taskNames);
    counters = counters == null ? List.of() : List.copyOf(counters);
    notMeasured = notMeasured == null ? new TreeMap<>() : new TreeMap<>(notMeasured);
  }

  /** The counter of this name, or null when it was not measured. */
  public ResourceCounter counter(String name) {
    for (ResourceCounter c : counters) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return null;
  }
}
