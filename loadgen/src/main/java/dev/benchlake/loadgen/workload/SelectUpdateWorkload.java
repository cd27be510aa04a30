package dev.benchlake.loadgen.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The task of the classic "PostgreSQL: Linux vs Windows" study (TestPostgresqlPerf, 2016).
 *
 * <p>Data: {@code table_a(thread_id int, a_value int)} with every pair of {@code thread_id} in
 * 1..10 and {@code a_value} in 1..{@code 100000 × scale}, and an index on {@code thread_id} only
 * (so each statement reads one thread's rows through that index: the study's design).
 *
 * <p>A task, in autocommit mode as in the study:
 * <pre>
 *   select a_value from table_a where thread_id = $1 and a_value = $2;
 *   [think time: sleep a uniform random time in [min, max], holding the connection]
 *   update table_a set a_value = $2 where thread_id = $1 and a_value = $2;
 * </pre>
 * with {@code $1} uniform in 1..10 and {@code $2} uniform in 1..rows per thread. The study drew
 * {@code $1} from 1..9 and {@code $2} from 1..99999 (.NET's {@code Random.Next} excludes its upper
 * bound) and slept 50–250 ms between the two statements; {@code --think-time 50ms..250ms}
 * reproduces the sleep. The update writes the value it matched, so the data never changes.
 */
public final class SelectUpdateWorkload implements Workload {
  public static final String NAME = "select-update";
  static final int THREADS = 10;
  static final int ROWS_PER_THREAD_AT_SCALE_1 = 100_000;

  static final String SELECT = "select a_value from table_a where thread_id = ? and a_value = ?";
  static final String UPDATE = "update table_a set a_value = ? where thread_id = ? and a_value = ?";

  private final double scale;
  private final int rowsPerThread;
  private final Duration thinkMin;
  private final Duration thinkMax;

  /**
   * @param scale rows per thread = 100000 × scale (at least 1)
   * @param thinkMin shortest think time between the SELECT and the UPDATE (zero for none)
   * @param thinkMax longest think time
   */
  public SelectUpdateWorkload(double scale, Duration thinkMin, Duration thinkMax) {
    this.scale = scale;
    this.rowsPerThread = (int) Math.max(1, Math.round(ROWS_PER_THREAD_AT_SCALE_1 * scale));
    this.thinkMin = thinkMin;
    this.thinkMax = thinkMax;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Step> steps() {
    return List.of(new SelectUpdateStep());
  }

  @Override
  public List<String> tables() {
    return List.of("table_a");
  }

  @Override
  public SortedMap<String, Object> parameters() {
    SortedMap<String, Object> p = new TreeMap<>();
    p.put("scale", scale);
    p.put("threads", THREADS);
    p.put("rows_per_thread", rowsPerThread);
    p.put("rows", (long) rowsPerThread * THREADS);
    p.put("think_time_min_ms", thinkMin.toNanos() / 1e6);
    p.put("think_time_max_ms", thinkMax.toNanos() / 1e6);
    return p;
  }

  @Override
  public void load(Connection connection, long seed, Consumer<String> progress) throws SQLException {
    progress.accept("loading table_a: " + THREADS + " x " + rowsPerThread + " rows (COPY)");
    Sql.execute(connection, "drop table if exists table_a", "create table table_a(thread_id int, a_value int)");
    try (CopyLoader copy = new CopyLoader(connection, "copy table_a(thread_id, a_value) from stdin")) {
      for (int thread = 1; thread <= THREADS; thread++) {
        for (int value = 1; value <= rowsPerThread; value++) {
          copy.row().append(thread).append('\t').append(value);
          copy.endRow();
        }
      }
      copy.finish();
    }
    // The index after the data: the same index, built once instead of row by row.
    Sql.execute(connection, "create index on table_a(thread_id)", "vacuum analyze table_a");
  }

  @Override
  public void verifyLoaded(Connection connection) throws SQLException {
    Sql.requireTable(connection, "table_a", (long) rowsPerThread * THREADS);
  }

  private final class SelectUpdateStep implements Step {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public TaskRunner open(Connection connection, int clientId, int clients) throws SQLException {
      PreparedStatement select = connection.prepareStatement(SELECT);
      PreparedStatement update = null;
      try {
        update = connection.prepareStatement(UPDATE);
      } finally {
        if (update == null) {
          Sql.closeQuietly(select);
        }
      }
      return new Runner(select, update);
    }
  }

  private final class Runner implements TaskRunner {
    private final PreparedStatement select;
    private final PreparedStatement update;

    Runner(PreparedStatement select, PreparedStatement update) {
      this.select = select;
      this.update = update;
    }

    @Override
    public void run(int task, SplittableRandom random) throws SQLException {
      int thread = random.nextInt(1, THREADS + 1);
      int value = random.nextInt(1, rowsPerThread + 1);
      select.setInt(1, thread);
      select.setInt(2, value);
      Sql.consume(select);
      think(random);
      update.setInt(1, value);
      update.setInt(2, thread);
      update.setInt(3, value);
      update.executeUpdate();
    }

    private void think(SplittableRandom random) throws SQLException {
      long maxNs = thinkMax.toNanos();
      if (maxNs <= 0) {
        return;
      }
      long minNs = thinkMin.toNanos();
      long sleepNs = minNs == maxNs ? minNs : random.nextLong(minNs, maxNs + 1);
      try {
        Thread.sleep(sleepNs / 1_000_000, (int) (sleepNs % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted during think time", e);
      }
    }

    @Override
    public void close() {
      Sql.closeQuietly(select, update);
    }
  }
}
