package dev.benchlake.loadgen;

import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.loadgen.db.Database;
import dev.benchlake.loadgen.db.SqlErrors;
import dev.benchlake.loadgen.db.TableHealthProbe;
import dev.benchlake.loadgen.db.TableHealthProbe.Snapshot;
import dev.benchlake.loadgen.workload.Step;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table health around each step, and {@code --between-steps}' maintenance: snapshot before
 * the step, snapshot after it, maintenance, next step. All of it runs between steps, on a
 * connection of its own, so the steps' measured tasks never wait for it. A snapshot that cannot
 * be read (a server without the statistics views, a lost connection) leaves that step's health
 * null with a warning: the run goes on, and the analysis says "not recorded"; maintenance that
 * fails ends the run, since the steps after it would not have the state the user asked for.
 */
final class StepHealthRecorder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StepHealthRecorder.class);
  /** Any time before every connection of the run: the first snapshot waits for the load's connections too. */
  private static final Instant RUN_START = Instant.EPOCH;

  private final TableHealthProbe probe;
  private final BetweenSteps betweenSteps;
  private final List<StepHealth> steps = new ArrayList<>();
  private Snapshot before;
  private Snapshot lastAfter;
  private boolean changedSinceAfter;
  private boolean first = true;

  private StepHealthRecorder(TableHealthProbe probe, BetweenSteps betweenSteps) {
    this.probe = probe;
    this.betweenSteps = betweenSteps;
  }

  /** A recorder on a new connection, or one that records nothing when it cannot connect. */
  static StepHealthRecorder open(Database database, int major, List<String> tables, BetweenSteps betweenSteps) {
    try {
      return new StepHealthRecorder(
          new TableHealthProbe(database.connect(), major, tables, database.applicationName()), betweenSteps);
    } catch (SQLException e) {
      if (betweenSteps != BetweenSteps.NONE) {
        throw new IllegalStateException("--between-steps " + betweenSteps + " needs a connection: "
            + database.target().scrub(SqlErrors.message(e)), e);
      }
      LOG.warn("no table health will be recorded: cannot connect: {}", database.target().scrub(SqlErrors.message(e)));
      return new StepHealthRecorder(null, betweenSteps);
    }
  }

  /** Before step {@code step} starts: maintenance after the previous one, then the snapshot. */
  void beforeStep() {
    if (!first && betweenSteps != BetweenSteps.NONE) {
      maintain();
    }
    if (!first && !changedSinceAfter && lastAfter != null) {
      // Nothing ran since the previous step's snapshot: it is this step's starting state.
      before = lastAfter;
    } else {
      before = snapshot(first ? RUN_START : null, true, null);
    }
    first = false;
  }

  /**
   * After the step's driver has returned (its connections closed). {@code leftBy} (nullable) is a
   * server instant by which the step's connections had left, known from another reading: up to 14
   * it spares a second wait for the stats collector.
   */
  void afterStep(Step step, Instant leftBy) {
    // The step's connections started after the before-snapshot's server time.
    Snapshot after = snapshot(before == null ? RUN_START : before.takenAt(), true, leftBy);
    steps.add(TableHealthProbe.step(step.name(), step.taskNames(), before, after));
    lastAfter = after;
    changedSinceAfter = false;
  }

  private void maintain() {
    if (probe == null) {
      return;
    }
    long started = System.nanoTime();
    try {
      probe.maintain(betweenSteps);
    } catch (SQLException e) {
      throw new IllegalStateException("--between-steps " + betweenSteps + " failed: " + SqlErrors.message(e)
          + (e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")"), e);
    }
    LOG.info("between steps: {} in {} ms", betweenSteps, (System.nanoTime() - started) / 1_000_000);
    changedSinceAfter = true;
    int last = steps.size() - 1;
    steps.set(last, steps.get(last).withMaintenanceAfter(betweenSteps.id()));
  }

  private Snapshot snapshot(Instant since, boolean settle, Instant leftBy) {
    if (probe == null) {
      return null;
    }
    long started = System.nanoTime();
    try {
      Snapshot s = probe.take(since, settle, leftBy);
      LOG.debug("table health snapshot in {} ms", (System.nanoTime() - started) / 1_000_000);
      return s;
    } catch (SQLException | RuntimeException e) {
      LOG.warn("table health not recorded for this step: {}", SqlErrors.message(e));
      return null;
    }
  }

  /** The steps recorded so far. */
  List<StepHealth> steps() {
    return List.copyOf(steps);
  }

  BetweenSteps betweenSteps() {
    return betweenSteps;
  }

  @Override
  public void close() {
    if (probe != null) {
      try {
        probe.close();
      } catch (SQLException e) {
        LOG.debug("closing the table health connection: {}", e.getMessage());
      }
    }
  }
}
