package dev.benchlake.analysis.confounders;

/**
 * One run's table health for one step, as step_metrics keeps it (warehouse format 3): the state
 * at the step's start and what autovacuum and autoanalyze did during it. A run and step without
 * such a record did not record its table health (sysbench, pgbench, an older loadgen).
 *
 * @param nLiveBefore Σ n_live_tup at the step's start, null when the snapshot failed
 * @param nDeadBefore Σ n_dead_tup at the step's start, null when the snapshot failed
 * @param tablesAutovacuumed tables autovacuum processed during the step, null when unknown
 * @param tablesAutoanalyzed tables autoanalyze processed during the step, null when unknown
 * @param betweenSteps the run's {@code --between-steps}
 */
public record StepHealthRecord(String runId, String step, Long nLiveBefore, Long nDeadBefore,
    Integer tablesAutovacuumed, Integer tablesAutoanalyzed, String betweenSteps) {

  /** n_dead / (n_live + n_dead) at the step's start, or null when unknown or the tables were empty. */
  public Double deadFractionBefore() {
    if (nLiveBefore == null || nDeadBefore == null || nLiveBefore + nDeadBefore <= 0) {
      return null;
    }
    return (double) nDeadBefore / (nLiveBefore + nDeadBefore);
  }
}
