package dev.benchlake.loadgen.run;

import com.zaxxer.hikari.HikariDataSource;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.SqlErrors;
import dev.benchlake.loadgen.workload.TaskRunner;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Burst, as in the classic TestPostgresqlPerf study: {@code burst} tasks are submitted at the same
 * instant and all wait for a connection from a pool of {@code pool} (HikariCP, filled before the
 * first burst). Each task's intended start is the submission instant; {@code wait_ns} is how long it
 * waited for its connection, so latency = wait + service. A task that gets no connection within
 * {@code poolTimeout} fails with the pool's timeout error, as the study's tasks did.
 *
 * <p>Bursts repeat, each after the previous one has drained, until the step has its tasks (the
 * last burst may be smaller) or its time is up; bursts submitted during the warm-up are marked
 * warm-up. In tasks.csv, {@code client_id} is the task's slot in its burst and {@code seq} the
 * burst's number. Every waiting task is a thread (Java 17 has no virtual threads), with a small
 * stack.
 */
public final class BurstDriver implements Driver {
  private static final Logger LOG = LoggerFactory.getLogger(BurstDriver.class);
  /** One waiting thread per task: beyond this, a burst is better expressed as an open loop. */
  public static final int MAX_BURST = 50_000;
  private static final long WAITER_STACK_BYTES = 256 * 1024;

  private final int burst;
  private final int pool;
  private final Duration poolTimeout;

  public BurstDriver(int burst, int pool, Duration poolTimeout) {
    this.burst = burst;
    this.pool = pool;
    this.poolTimeout = poolTimeout;
  }

  @Override
  public int startParties() {
    return 1;
  }

  @Override
  public void run(StepRun run) throws InterruptedException {
    try (HikariDataSource dataSource = run.database.pool(pool, poolTimeout)) {
      fill(dataSource);
      // A gated step's first burst goes at its start: filling the pool is not inside its window.
      run.awaitStart();
      long measuredSubmitted = 0;
      for (long burstIndex = 0; !run.control.stopRequested(); burstIndex++) {
        long submitNs = run.clock.now();
        boolean warmup = submitNs < run.warmupEndNs();
        int size = burst;
        if (!warmup) {
          if (run.plan.timed()) {
            if (submitNs >= run.endNs()) {
              break;
            }
          } else {
            long remaining = run.plan.tasks() - measuredSubmitted;
            if (remaining <= 0) {
              break;
            }
            size = (int) Math.min(burst, remaining);
          }
          measuredSubmitted += size;
        }
        runBurst(run, dataSource, burstIndex, size, warmup);
      }
    }
  }

  /** Waits until the pool holds all its connections, so the first burst does not pay for connecting. */
  private void fill(HikariDataSource dataSource) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (dataSource.getHikariPoolMXBean() == null
        || dataSource.getHikariPoolMXBean().getTotalConnections() < pool) {
      if (System.nanoTime() > deadline) {
        LOG.warn("the pool has {} of {} connections after 60 s; starting anyway",
            dataSource.getHikariPoolMXBean() == null ? 0 : dataSource.getHikariPoolMXBean().getTotalConnections(), pool);
        return;
      }
      Thread.sleep(20);
    }
  }

  private void runBurst(StepRun run, HikariDataSource dataSource, long burstIndex, int size, boolean warmup)
      throws InterruptedException {
    Gate gate = new Gate();
    Thread[] waiters = new Thread[size];
    for (int slot = 0; slot < size; slot++) {
      int s = slot;
      waiters[slot] = new Thread(null, () -> {
        gate.await();
        runTask(run, dataSource, s, size, burstIndex, gate.openedNs, warmup);
      }, "burst-" + slot, WAITER_STACK_BYTES);
      waiters[slot].start();
    }
    gate.open(run.clock.now(), waiters);
    for (Thread t : waiters) {
      while (t.isAlive()) {
        t.join(100);
        if (run.control.stopRequested() && !dataSource.isClosed()) {
          // Tasks still waiting for a connection were never attempted: release them at once.
          dataSource.close();
        }
      }
    }
  }

  /**
   * Holds a burst's threads until all are started, then lets them all go at once. The opener
   * unparks every thread itself: with a CountDownLatch each woken thread wakes the next, and on a
   * CPU-saturated machine that chain alone can take tens of seconds for thousands of threads.
   */
  private static final class Gate {
    private volatile boolean open;
    private volatile long openedNs;

    void await() {
      while (!open) {
        LockSupport.park(this);
      }
    }

    void open(long nowNs, Thread[] threads) {
      openedNs = nowNs;
      open = true;
      for (Thread t : threads) {
        LockSupport.unpark(t);
      }
    }
  }

  private static void runTask(StepRun run, HikariDataSource dataSource, int slot, int size, long burstIndex,
      long intendedNs, boolean warmup) {
    SplittableRandom random = run.random(slot, burstIndex);
    int task = run.step.pickTask(random);
    String name = run.taskName(task);
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException | RuntimeException e) {
      long endNs = run.clock.now();
      if (run.control.stopRequested() && dataSource.isClosed()) {
        return;
      }
      String message = e instanceof SQLTransientConnectionException
          ? "pool timeout: no connection within " + dataSource.getConnectionTimeout() + " ms ("
              + SqlErrors.message(e) + ")"
          : SqlErrors.message(e);
      run.record(new TaskRecord(name, slot, burstIndex, intendedNs, endNs, endNs, endNs - intendedNs, warmup, false,
          SqlErrors.sqlState(e), run.database.target().scrub(message)));
      return;
    }
    long startNs = run.clock.now();
    long waitNs = startNs - intendedNs;
    try {
      try (TaskRunner runner = run.step.open(connection, slot, size)) {
        runner.run(task, random);
      }
      long endNs = run.clock.now();
      run.record(new TaskRecord(name, slot, burstIndex, intendedNs, startNs, endNs, waitNs, warmup, true, "", ""));
    } catch (SQLException | RuntimeException e) {
      long endNs = run.clock.now();
      run.record(new TaskRecord(name, slot, burstIndex, intendedNs, startNs, endNs, waitNs, warmup, false,
          SqlErrors.sqlState(e), run.database.target().scrub(SqlErrors.message(e))));
      rollbackQuietly(connection);
    } finally {
      try {
        connection.close();
      } catch (SQLException e) {
        // back to the pool or evicted by it; nothing else to do
      }
    }
  }

  /** Ends an aborted transaction before the connection goes back to the pool. */
  private static void rollbackQuietly(Connection connection) {
    try {
      if (!connection.isClosed()) {
        try (var st = connection.createStatement()) {
          st.execute("ROLLBACK");
        }
      }
    } catch (SQLException e) {
      // HikariCP evicts connections that failed with a connection-class SQLSTATE.
    }
  }
}
