package dev.benchlake.core.raw;

import java.util.List;

/**
 * One step's table health in the manifest ({@code step_health}): the state before and after it,
 * and what maintenance ran after it, before the next step's snapshot.
 *
 * @param step the step's name
 * @param taskNames the names its tasks are recorded under (the {@code step} of tasks.csv)
 * @param healthBefore the state when the step started
 * @param healthAfter the state when it ended, absent when the snapshot failed or the run stopped
 * @param tablesAutovacuumed how many tables autovacuum processed during the step (their
 *     {@code autovacuum_count} rose between the two snapshots)
 * @param tablesAutoanalyzed how many tables autoanalyze processed during the step
 * @param maintenanceAfter what loadgen ran on the tables after the step ({@code --between-steps}:
 *     {@code analyze}, {@code vacuum-analyze}, {@code checkpoint}), absent when nothing ran
 */
public record StepHealth(String step, List<String> taskNames, TableHealth healthBefore, TableHealth healthAfter,
    Integer tablesAutovacuumed, Integer tablesAutoanalyzed, String maintenanceAfter) {

  public StepHealth {
    taskNames = taskNames == null ? List.of() : List.copyOf(taskNames);
  }

  /** This step with the maintenance that ran after it. */
  public StepHealth withMaintenanceAfter(String maintenance) {
    return new StepHealth(step, taskNames, healthBefore, healthAfter, tablesAutovacuumed, tablesAutoanalyzed,
        maintenance);
  }
}
