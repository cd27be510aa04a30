package dev.benchlake.loadgen.run;

import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.SqlErrors;
import dev.benchlake.loadgen.workload.TaskRunner;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One client's connection in the closed and open loops: opens it on first use, runs tasks on it,
 * and after a failure either rolls back (the connection is fine) or drops it and reconnects with
 * exponential backoff (10 ms doubling to 1 s, ±25 % jitter so that clients do not reconnect in
 * lockstep). A failed connection attempt is a failed task like any other: one line in tasks.csv.
 */
final class ClientSession implements AutoCloseable {
  static final long MIN_BACKOFF_NS = 10_000_000L;
  static final long MAX_BACKOFF_NS = 1_000_000_000L;

  private final StepRun run;
  private final int clientId;
  private final int clients;
  private Connection connection;
  private TaskRunner runner;
  private int consecutiveConnectionFailures;
  private long backoffUntilNs = Long.MIN_VALUE;
  private final HandicapStretch stretch;

  ClientSession(StepRun run, int clientId, int clients) {
    this(run, clientId, clients, HandicapStretch.NONE);
  }

  /** @param stretch the handicap after each successful task (a closed loop's; {@link HandicapStretch#NONE}: none) */
  ClientSession(StepRun run, int clientId, int clients, HandicapStretch stretch) {
    this.run = run;
    this.clientId = clientId;
    this.clients = clients;
    this.stretch = stretch;
  }

  /**
   * For a gated step: connects and prepares the step's statements before the step starts (a
   * connection that fails now is left to the first task, which records the failure), then waits
   * for the start.
   *
   * @return false when the run was stopped meanwhile
   */
  boolean setUpAndAwaitStart() {
    if (run.gated()) {
      try {
        connection = run.database.connect();
        runner = run.step.open(connection, clientId, clients);
      } catch (SQLException | RuntimeException e) {
        drop();
      }
    }
    try {
      run.awaitStart();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return !run.control.stopRequested();
  }

  /** Waits out the backoff after a lost connection (returns at once when there is none or the run stops). */
  void awaitBackoff() {
    if (backoffUntilNs != Long.MIN_VALUE) {
      run.clock.sleepUntil(backoffUntilNs, run.control);
    }
  }

  /** Runs one task intended to start at {@code intendedNs} and records it. */
  void execute(int task, long intendedNs, boolean warmup, long seq, SplittableRandom random) {
    long startNs = Math.max(intendedNs, run.clock.now());
    String name = run.taskName(task);
    try {
      if (connection == null) {
        connection = run.database.connect();
        runner = run.step.open(connection, clientId, clients);
      }
      runner.run(task, random);
      long endNs = stretch.end(startNs, run.clock.now(), run.clock::now);
      consecutiveConnectionFailures = 0;
      backoffUntilNs = Long.MIN_VALUE;
      run.record(new TaskRecord(name, clientId, seq, intendedNs, startNs, endNs, 0, warmup, true, "", ""));
    } catch (SQLException | RuntimeException e) {
      long endNs = run.clock.now();
      String sqlState = SqlErrors.sqlState(e);
      String message = run.database.target().scrub(SqlErrors.message(e));
      run.record(new TaskRecord(name, clientId, seq, intendedNs, startNs, endNs, 0, warmup, false, sqlState, message));
      recover(sqlState, endNs);
    }
  }

  private void recover(String sqlState, long nowNs) {
    boolean lost = connection == null || SqlErrors.connectionLost(sqlState) || isClosed(connection);
    if (!lost) {
      // A failed statement inside BEGIN … COMMIT leaves the transaction aborted: end it. Outside a
      // transaction this only draws a warning from the server.
      try (Statement st = connection.createStatement()) {
        st.execute("ROLLBACK");
        return;
      } catch (SQLException e) {
        lost = true;
      }
    }
    drop();
    consecutiveConnectionFailures++;
    long backoff = Math.min(MAX_BACKOFF_NS, MIN_BACKOFF_NS << Math.min(20, consecutiveConnectionFailures - 1));
    double jitter = 0.75 + 0.5 * ThreadLocalRandom.current().nextDouble();
    backoffUntilNs = nowNs + (long) (backoff * jitter);
  }

  private static boolean isClosed(Connection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private void drop() {
    if (runner != null) {
      runner.close();
      runner = null;
    }
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // already broken
      }
      connection = null;
    }
  }

  @Override
  public void close() {
    drop();
  }
}
