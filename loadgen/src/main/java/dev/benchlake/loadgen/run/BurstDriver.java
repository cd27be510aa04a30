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
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Burst, as in the classic TestPostgresqlPerf study: {@code burst} tasks are submitted at the same
 * instant and wait, in submission order, for a connection from a pool of {@code pool} (HikariCP,
 * filled before the first burst). Each task's intended start is the submission instant; {@code
 * wait_ns} is how long it waited for its connection, so latency = wait + service. A task that has
 * waited {@code poolTimeout} without a connection fails with a pool timeout, as the study's tasks
 * did. One taken from the queue within its time asks the pool, which, with the server gone, waits
 * its whole timeout: such a task's record shows the longer wait it had.
 *
 * <p>The waiting tasks are a queue served by {@code pool} workers, one per connection, not a thread
 * each: a thread per task woke the whole burst's threads at once, a herd that held a duet side's
 * backends off its one CPU at moments of its own (docs/designs.md). Which waiting task gets the
 * next free connection does not change when the tasks end, only which of them ends when; the queue serves them first
 * come, first served, as a fair pool does.
 *
 * <p>Bursts repeat, each after the previous one has drained, until the step has its tasks (the
 * last burst may be smaller) or its time is up; bursts submitted during the warm-up are marked
 * warm-up. A warm-up burst is started only while the warm-up has at least as long left as the
 * last burst took to drain; otherwise the first measured burst waits for the warm-up's end, so
 * that it starts there (in a duet, on both sides at once) rather than whenever the side's last
 * warm-up burst happens to drain. In tasks.csv, {@code client_id} is the task's slot in its burst
 * and {@code seq} the burst's number.
 */
public final class BurstDriver implements Driver {
  /** A burst's size limit: beyond it, a burst is better expressed as an open loop. */
  public static final int MAX_BURST = 50_000;
  /** The manifest's {@code burst_dispatch}: the waiting tasks are a queue (see above). */
  public static final String DISPATCH = "queue";
  private static final Logger LOG = LoggerFactory.getLogger(BurstDriver.class);

  private final int burst;
  private final int pool;
  /** The longest wait for a connection: in the queue, and in the pool (its connection timeout). */
  private final long poolTimeoutNs;

  public BurstDriver(int burst, int pool, Duration poolTimeout) {
    this.burst = burst;
    this.pool = pool;
    this.poolTimeoutNs = poolTimeout.toNanos();
  }

  @Override
  public int startParties() {
    return 1;
  }

  @Override
  public void run(StepRun run) throws InterruptedException {
    try (HikariDataSource dataSource = run.database.pool(pool, Duration.ofNanos(poolTimeoutNs));
        Workers workers = new Workers(run, dataSource)) {
      fill(dataSource);
      // A gated step's first burst goes at its start: filling the pool and starting the workers
      // are not inside its window.
      run.awaitStart();
      long measuredSubmitted = 0;
      long lastDrainNs = 0;
      for (long burstIndex = 0; !run.control.stopRequested(); burstIndex++) {
        long submitNs = run.clock.now();
        boolean warmup = submitNs < run.warmupEndNs();
        if (warmup && burstIndex > 0 && submitNs + lastDrainNs > run.warmupEndNs()) {
          // Another warm-up burst would likely drain past the warm-up: the first measured burst
          // goes at the warm-up's end instead, the same instant on both sides of a duet.
          run.clock.sleepUntil(run.warmupEndNs(), run.control);
          if (run.control.stopRequested()) {
            break;
          }
          submitNs = run.clock.now();
          warmup = false;
        }
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
        workers.drain(new Burst(burstIndex, size, warmup));
        lastDrainNs = run.clock.now() - submitNs;
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

  /**
   * One burst: its tasks' slots, taken in order by the workers, and the instant it was submitted
   * (every task's intended start), set when the workers are let go.
   */
  private static final class Burst {
    final long index;
    final int size;
    final boolean warmup;
    final AtomicInteger nextSlot = new AtomicInteger();
    volatile long submittedNs;

    Burst(long index, int size, boolean warmup) {
      this.index = index;
      this.size = size;
      this.warmup = warmup;
    }

    /** The next waiting task's slot, or -1 when every task has been taken. */
    int take() {
      int slot = nextSlot.getAndIncrement();
      return slot < size ? slot : -1;
    }
  }

  /**
   * The step's {@code pool} workers, one per connection, started before the step's window and kept
   * for all its bursts: a burst lets them all go at once and ends when each has found its queue
   * empty. Two phases of one {@link Phaser} per burst (its parties: the workers and the step's
   * thread): "go", then "drained".
   */
  private final class Workers implements AutoCloseable {
    private final StepRun run;
    private final HikariDataSource dataSource;
    private final Phaser phaser;
    private final Thread[] threads;
    /** The burst the next "go" lets the workers drain; null: they end. */
    private volatile Burst current;

    Workers(StepRun run, HikariDataSource dataSource) {
      this.run = run;
      this.dataSource = dataSource;
      this.threads = new Thread[pool];
      this.phaser = new Phaser(1 + pool);
      for (int w = 0; w < pool; w++) {
        threads[w] = new Thread(this::work, "burst-worker-" + w);
        threads[w].start();
      }
    }

    private void work() {
      try {
        while (true) {
          phaser.arriveAndAwaitAdvance(); // go
          Burst burst = current;
          if (burst == null) {
            return;
          }
          for (int slot = burst.take(); slot >= 0 && !run.control.stopRequested(); slot = burst.take()) {
            runTask(burst, slot);
          }
          phaser.arriveAndAwaitAdvance(); // drained
        }
      } finally {
        // A worker that failed no longer holds back a phase (after close: a no-op).
        phaser.arriveAndDeregister();
      }
    }

    /** Lets the workers go on {@code burst} and returns once they have drained it. */
    void drain(Burst burst) throws InterruptedException {
      current = burst;
      burst.submittedNs = run.clock.now();
      phaser.arriveAndAwaitAdvance(); // go
      int drained = phaser.arrive();
      while (true) {
        try {
          phaser.awaitAdvanceInterruptibly(drained, 100, TimeUnit.MILLISECONDS);
          return;
        } catch (TimeoutException e) {
          releaseIfStopped();
        }
      }
    }

    /**
     * Ends the workers and waits for them: at once when they wait for a "go"; after the burst under
     * way when the step's thread was interrupted in it (terminating the phaser means no arrival is
     * counted twice, whichever phase it was in).
     */
    @Override
    public void close() throws InterruptedException {
      current = null;
      phaser.forceTermination();
      for (Thread t : threads) {
        while (t.isAlive()) {
          t.join(100);
          releaseIfStopped();
        }
      }
    }

    /** Once the run is stopped, a worker blocked on a connection (the server gone) is released at once. */
    private void releaseIfStopped() {
      if (run.control.stopRequested() && !dataSource.isClosed()) {
        dataSource.close();
      }
    }

    private void runTask(Burst burst, int slot) {
      SplittableRandom random = run.random(slot, burst.index);
      int task = run.step.pickTask(random);
      String name = run.taskName(task);
      long intendedNs = burst.submittedNs;
      if (run.clock.now() - intendedNs >= poolTimeoutNs) {
        // It has waited the pool's timeout in the queue: it fails then, as a task waiting in the pool would.
        long endNs = intendedNs + poolTimeoutNs;
        run.record(new TaskRecord(name, slot, burst.index, intendedNs, endNs, endNs, poolTimeoutNs, burst.warmup,
            false, "", poolTimeoutMessage("waited in the burst's queue")));
        return;
      }
      Connection connection;
      try {
        connection = dataSource.getConnection();
      } catch (SQLException | RuntimeException e) {
        long endNs = run.clock.now();
        if (run.control.stopRequested() && dataSource.isClosed()) {
          return;
        }
        String message = e instanceof SQLTransientConnectionException
            ? poolTimeoutMessage(SqlErrors.message(e))
            : SqlErrors.message(e);
        run.record(new TaskRecord(name, slot, burst.index, intendedNs, endNs, endNs, endNs - intendedNs, burst.warmup,
            false, SqlErrors.sqlState(e), run.database.target().scrub(message)));
        return;
      }
      long startNs = run.clock.now();
      long waitNs = startNs - intendedNs;
      try {
        try (TaskRunner runner = run.step.open(connection, slot, burst.size)) {
          runner.run(task, random);
        }
        long endNs = run.clock.now();
        run.record(new TaskRecord(name, slot, burst.index, intendedNs, startNs, endNs, waitNs, burst.warmup, true, "",
            ""));
      } catch (SQLException | RuntimeException e) {
        long endNs = run.clock.now();
        run.record(new TaskRecord(name, slot, burst.index, intendedNs, startNs, endNs, waitNs, burst.warmup, false,
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
  }

  /** A pool timeout's message: the pool's timeout is also the queue's ({@link dev.benchlake.loadgen.db.Database#pool}). */
  private String poolTimeoutMessage(String detail) {
    return "pool timeout: no connection within " + poolTimeoutNs / 1_000_000 + " ms (" + detail + ")";
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
