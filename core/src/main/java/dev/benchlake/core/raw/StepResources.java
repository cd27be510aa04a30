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
 * <p>{@code window} says which interval the counters and {@code tasks} cover:
 * <ul>
 *   <li>{@value #MEASURED}: the step's measured window. The first reading is
 *   taken when the warm-up ends ({@link StepWindow#measuredFromEpochNs()}; before the step's
 *   connections open when it has no warm-up), the last once the step's connections have left, and
 *   {@code tasks} counts the measured tasks only (those intended to start after the warm-up). The
 *   process counters are exact at any instant (a live backend's CPU time is in its {@code stat}).
 *   PostgreSQL's own counters at the first reading lag each backend's work by up to its flush
 *   interval (1 s from PostgreSQL 15, 500 ms before): that much warm-up work may count in the
 *   window. The last reading is exact: a backend flushes its statistics when it exits.</li>
 *   <li>absent (manifests written before): the whole step, warm-up included, both in the counters
 *   and in {@code tasks}; read so ({@link #includesWarmup()}), never reinterpreted.</li>
 * </ul>
 *
 * @param step the step's name
 * @param taskNames the names its tasks are recorded under (the {@code step} of tasks.csv)
 * @param tasks the completed tasks in the window, successful or not
 * @param counters the counters that could be read at both ends
 * @param notMeasured the counters that could not, each with why (a server by URL has no process
 *     here; {@code pg_stat_wal} needs PostgreSQL 14): absent, never zero
 * @param window {@value #MEASURED}, or null for the whole step with its warm-up (older manifests)
 * @param fromEpochNs when the first reading was taken (ns since the epoch, the client's clock); absent in older manifests
 * @param toEpochNs when the last reading was taken; absent in older manifests
 * @param profile the server's CPU profile over the window ({@code --profile}); absent when not asked
 */
public record StepResources(String step, List<String> taskNames, long tasks, List<ResourceCounter> counters,
    SortedMap<String, String> notMeasured, String window, Long fromEpochNs, Long toEpochNs, StepProfile profile) {

  /** The {@code window} of counters read over the step's measured window, warm-up left out. */
  public static final String MEASURED = "measured";

  public StepResources {
    taskNames = taskNames == null ? List.of() : List.copyOf(taskNames);
    counters = counters == null ? List.of() : List.copyOf(counters);
    notMeasured = notMeasured == null ? new TreeMap<>() : new TreeMap<>(notMeasured);
  }

  /** A step's counters over the whole step, warm-up included (as older manifests hold them). */
  public StepResources(String step, List<String> taskNames, long tasks, List<ResourceCounter> counters,
      SortedMap<String, String> notMeasured) {
    this(step, taskNames, tasks, counters, notMeasured, null, null, null, null);
  }

  /**
   * The {@code step_metrics} row of a step whose figures cover its measured window only: the
   * window's length in s, from the first reading to the last. A step's figures without it (runs
   * written before the window was recorded) include its warm-up.
   */
  public static final String WINDOW_METRIC = "resource_window_s";

  /** The measured window's length from the first reading to the last, in s; empty for an older manifest's whole step. */
  public java.util.OptionalDouble measuredWindowS() {
    return includesWarmup() || fromEpochNs == null || toEpochNs == null || toEpochNs < fromEpochNs
        ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of((toEpochNs - fromEpochNs) / 1e9);
  }

  /** Whether the counters and tasks include the step's warm-up (a manifest written before the window was recorded). */
  public boolean includesWarmup() {
    return !MEASURED.equals(window);
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
