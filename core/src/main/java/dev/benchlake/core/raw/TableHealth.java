package dev.benchlake.core.raw;

/**
 * The table-maintenance state of a workload's tables at one moment, summed over the tables: what
 * {@code pg_stat_user_tables} and the checkpointer's statistics said. It goes in the manifest
 * before and after every step ({@link StepHealth}), because a step's figures depend on it: dead
 * tuples left by earlier writes slow reads until a vacuum removes them, and a step during which
 * autovacuum or autoanalyze ran measured the server and the maintenance together.
 *
 * <p>The statistics are PostgreSQL's cumulative ones, updated asynchronously: loadgen takes the
 * snapshot after the step's own connections have ended (a backend flushes its counters when it
 * exits) and, before PostgreSQL 15, after the stats collector's half-second interval; see
 * {@code dev.benchlake.loadgen.db.TableHealthProbe}. {@code n_live_tup} and {@code n_dead_tup}
 * are PostgreSQL's estimates, not counts.
 *
 * @param takenAt the server's clock ({@code clock_timestamp()}) as an ISO-8601 UTC instant
 * @param tables how many of the workload's tables the sums cover
 * @param nLiveTup Σ {@code n_live_tup}
 * @param nDeadTup Σ {@code n_dead_tup}
 * @param autovacuumCount Σ {@code autovacuum_count}
 * @param autoanalyzeCount Σ {@code autoanalyze_count}
 * @param lastAutovacuum the latest {@code last_autovacuum} over the tables (ISO-8601 UTC), absent
 *     when none was ever vacuumed by autovacuum
 * @param lastAutoanalyze the latest {@code last_autoanalyze}, likewise
 * @param checkpoints checkpoints since the statistics were reset, timed and requested
 *     ({@code pg_stat_bgwriter.checkpoints_timed + checkpoints_req} up to PostgreSQL 16,
 *     {@code pg_stat_checkpointer.num_timed + num_requested} from 17); absent when not readable
 * @param buffersWritten buffers written by checkpoints ({@code pg_stat_bgwriter.buffers_checkpoint}
 *     up to 16, {@code pg_stat_checkpointer.buffers_written} from 17); absent when not readable
 */
public record TableHealth(String takenAt, int tables, long nLiveTup, long nDeadTup, long autovacuumCount,
    long autoanalyzeCount, String lastAutovacuum, String lastAutoanalyze, Long checkpoints, Long buffersWritten) {

  /** {@code n_dead_tup / (n_live_tup + n_dead_tup)}, or null for empty tables. */
  public Double deadFraction() {
    long all = nLiveTup + nDeadTup;
    return all > 0 ? (double) nDeadTup / all : null;
  }
}
