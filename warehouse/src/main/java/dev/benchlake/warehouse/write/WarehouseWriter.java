package dev.benchlake.warehouse.write;

import static org.apache.spark.sql.functions.col;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import io.delta.exceptions.DeltaConcurrentModificationException;
import io.delta.tables.DeltaTable;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one ingest into a warehouse: whole runs only, and every row exactly once, however many
 * earlier ingests of the same runs were killed, and wherever.
 *
 * <p>Delta commits are atomic per table, not across tables. {@link #commit} therefore makes, under
 * the {@link RunLocks} of the ingest's sources and runs (so no live ingest writes these runs):
 * <ol>
 *   <li><b>clean-up</b>: with {@code --replace}, the replaced runs leave every table, {@code runs}
 *       first (a reader sees the old run whole or not at all); then the rows of the batch's own
 *       runs that the data tables still hold (left by an ingest killed before its commit point:
 *       invisible, but the commit below would make them visible) leave them. One DELETE commit per
 *       table that holds such rows.
 *   <li><b>append</b>: the data tables ({@code rejects}, {@code ingest_files}, {@code step_metrics},
 *       {@code tasks}), then {@code runs}, one commit each. The {@code runs} rows are the commit
 *       point: {@link Warehouse} shows no row of a run without one.
 * </ol>
 *
 * <p><b>The invariant</b>: after the clean-up, no table holds a row of the batch's runs; and every
 * append of the attempt lands. Together: after the {@code runs} commit, each row of the batch is in
 * its table exactly once. Killed at any commit (or between two), an attempt leaves either a run
 * with a {@code runs} row, which was appended last and so is whole, or rows without one, which no
 * reader shows and the next attempt's clean-up removes before it appends again.
 *
 * <p><b>Why every append lands</b>: each commit carries Delta's transaction mark {@code (appId,
 * version)}, {@code appId = "benchlake-ingest:" + ingestKey}, and Delta skips an append whose app
 * id has already committed that version or a later one. A mark says that an append once committed,
 * not that its rows are still there: a clean-up may have deleted them since. So the version is
 * never assumed (a fixed first version, or the clock): it is read, after the clean-up, as one more
 * than the greatest version the app id has recorded in any table ({@link #nextVersion}), and no
 * append of this attempt can be mistaken for one done before. (Issue 25: with a fixed version 1, a
 * run killed after its tasks' commit, then re-run and killed after its clean-up, was re-run as
 * "added" with none of its tasks, and stayed so.) What the marks still do: two ingests of one batch
 * that race where there are no locks ({@code s3a://}) read the same version from the same state,
 * and Delta lands only the first append of it per table.
 *
 * <p>Every append is Delta's own write split from its commit ({@link StagedAppend}), so a write that
 * fails (a full disk) removes the data files it wrote. Concurrent ingests of different inputs are
 * blind appends, which Delta lets through (a commit that loses a race on the log is retried).
 */
public final class WarehouseWriter {
  private static final Logger LOG = LoggerFactory.getLogger(WarehouseWriter.class);
  private static final String APP_ID_PREFIX = "benchlake-ingest:";
  private static final int MAX_ATTEMPTS = 8;
  /** The tables an ingest appends to before its commit point. */
  private static final List<Table> DATA_TABLES = List.of(Table.TASKS, Table.STEP_METRICS, Table.REJECTS,
      Table.INGEST_FILES);
  /** Every table, the commit point first: what a replaced run leaves. */
  private static final List<Table> ALL_TABLES = List.of(Table.RUNS, Table.TASKS, Table.STEP_METRICS, Table.REJECTS,
      Table.INGEST_FILES);

  /** The tables of a few rows per ingest. */
  private static final java.util.Set<Table> ONE_FILE_TABLES = java.util.EnumSet.of(Table.RUNS, Table.INGEST_FILES);

  private final Warehouse warehouse;
  private final CommitListener listener;

  public WarehouseWriter(Warehouse warehouse) {
    this(warehouse, CommitListener.NONE);
  }

  public WarehouseWriter(Warehouse warehouse, CommitListener listener) {
    this.warehouse = warehouse;
    this.listener = listener;
  }

  /**
   * Told about each commit this writer makes: progress messages, and fault injection in tests (the
   * kill tests stop a real ingest process right after each commit in turn).
   */
  public interface CommitListener {
    CommitListener NONE = new CommitListener() { };

    /** Before the append to {@code table}. */
    default void beforeCommit(Table table) {}

    /** Once the append's data files of {@code table} are written, right before they are committed. */
    default void staged(Table table) {}

    /** After the append to {@code table} committed. */
    default void afterCommit(Table table) {}

    /** After a clean-up's DELETE of rows from {@code table} committed. */
    default void afterDelete(Table table) {}
  }

  /**
   * The rows of one ingest, each matching its {@link WarehouseSchema} table.
   *
   * @param empty tables this ingest has no rows for: they are not appended to (a commit of nothing
   *     costs seconds and there is nothing in it to make idempotent)
   */
  public record Batch(Dataset<Row> runs, Dataset<Row> tasks, Dataset<Row> stepMetrics, Dataset<Row> rejects,
      Dataset<Row> ingestFiles, java.util.Set<Table> empty, StagedAppend stagedTasks) {
    /**
     * @param stagedTasks the tasks, already written and waiting for their commit (then
     *     {@code tasks} is not written), or null
     */
    public Batch {
    }

    public Batch(Dataset<Row> runs, Dataset<Row> tasks, Dataset<Row> stepMetrics, Dataset<Row> rejects,
        Dataset<Row> ingestFiles, java.util.Set<Table> empty) {
      this(runs, tasks, stepMetrics, rejects, ingestFiles, empty, null);
    }

    /** A batch without per-file accounting (test fixtures and benchmarks that make up rows). */
    public Batch(Dataset<Row> runs, Dataset<Row> tasks, Dataset<Row> stepMetrics, Dataset<Row> rejects,
        java.util.Set<Table> empty) {
      this(runs, tasks, stepMetrics, rejects, runs.sparkSession().createDataFrame(List.of(), WarehouseSchema.INGEST_FILES),
          with(empty, Table.INGEST_FILES));
    }

    private static java.util.Set<Table> with(java.util.Set<Table> tables, Table table) {
      java.util.Set<Table> out = java.util.EnumSet.of(table);
      out.addAll(tables);
      return out;
    }

    Dataset<Row> rows(Table table) {
      return switch (table) {
        case RUNS -> runs;
        case TASKS -> tasks;
        case STEP_METRICS -> stepMetrics;
        case REJECTS -> rejects;
        case INGEST_FILES -> ingestFiles;
      };
    }
  }

  /**
   * The whole protocol of the class comment: the clean-up, then the appends. The caller holds the
   * {@link RunLocks} of the batch's sources and runs.
   *
   * @param ingestKey a content hash of the inputs
   * @param runIds the runs of {@code batch}
   * @param replacedRunIds committed runs that {@code batch} replaces ({@code --replace}), or none
   */
  public void commit(String ingestKey, Batch batch, List<String> runIds, List<String> replacedRunIds) {
    delete(replacedRunIds, ALL_TABLES);
    // Left by an ingest killed before its commit point: invisible, but the appends below would
    // make them visible.
    delete(runIds, DATA_TABLES);
    append(ingestKey, batch);
  }

  /**
   * Appends {@code batch} under {@code ingestKey}, data tables first, {@code runs} last, each commit
   * marked with the {@linkplain #nextVersion next version} of the key's app id. On its own (without
   * {@link #commit}'s clean-up) only for runs that no table holds a row of: test fixtures, benchmarks.
   */
  public void append(String ingestKey, Batch batch) {
    WarehouseFormat.requireWritable(warehouse);
    try (RunLocks lock = RunLocks.acquire(warehouse, List.of("create format"))) {
      // Before any table exists, so that a folder with tables always says its format.
      WarehouseFormat.initialiseIfEmpty(warehouse);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    String appId = APP_ID_PREFIX + ingestKey;
    String userMetadata = "benchlake ingest " + ingestKey;
    long version = nextVersion(appId);
    for (Table table : Table.values()) {
      if (table == Table.TASKS && batch.stagedTasks() != null) {
        if (batch.empty().contains(table)) {
          batch.stagedTasks().discard();
          continue;
        }
        listener.beforeCommit(table);
        listener.staged(table);
        batch.stagedTasks().commit(appId, version, userMetadata);
        listener.afterCommit(table);
        continue;
      }
      if (table != Table.RUNS && batch.empty().contains(table)) {
        continue; // its rows may be null then (an ingest whose parsers give no tasks has none)
      }
      // One row per run or per file: one Parquet file per ingest, written by one task, not one
      // per core (Delta Kernel readers open every file: a warehouse of N ingests is N files, not 2N).
      Dataset<Row> rows = ONE_FILE_TABLES.contains(table) ? batch.rows(table).coalesce(1) : batch.rows(table);
      listener.beforeCommit(table);
      Runnable write = () -> {
        StagedAppend staged = StagedAppend.write(warehouse, table, rows);
        listener.staged(table);
        staged.commit(appId, version, userMetadata);
      };
      if (DeltaTable.isDeltaTable(warehouse.spark(), warehouse.path(table))) {
        write.run();
      } else {
        // The first append creates the table: one ingest at a time, so that concurrent first
        // ingests do not both try to create it.
        try (RunLocks lock = RunLocks.acquire(warehouse, List.of("create " + table.dirName()))) {
          write.run();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      listener.afterCommit(table);
    }
  }

  /**
   * One more than the greatest transaction version {@code appId} has recorded in any table (1 when
   * none has): a version no append of this app id has committed, in any table, so that Delta skips
   * none of this attempt's appends. Read from fresh snapshots of the tables' logs, after the
   * clean-up; the caller's locks keep other ingests of this app id away meanwhile.
   */
  long nextVersion(String appId) {
    SparkSession spark = warehouse.spark();
    long recorded = 0;
    for (Table table : Table.values()) {
      String path = warehouse.path(table);
      if (DeltaTable.isDeltaTable(spark, path)) {
        recorded = Math.max(recorded, DeltaLog.forTable(spark, path).startTransaction().txnVersion(appId));
      }
    }
    return recorded + 1;
  }

  /**
   * Whether any data table holds rows of these runs. Read on the driver with Delta Kernel
   * ({@link KernelWarehouse#hasRowsOf}: the files' run_id statistics rule out all of them for new
   * runs), where a Spark query per table rebuilt its Delta snapshot and scanned it. Fresh
   * snapshots: the ingest has just written.
   */
  public boolean hasRowsOf(List<String> runIds) {
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    java.util.Set<String> ids = new java.util.HashSet<>(runIds);
    return DATA_TABLES.stream().anyMatch(table -> tables.hasRowsOf(table, ids));
  }

  /**
   * Deletes every row of these runs from each of {@code tables} that holds one, in that order: one
   * DELETE commit per such table. A table without one is not touched (Delta would scan it to commit
   * nothing).
   */
  private void delete(List<String> runIds, List<Table> tables) {
    if (runIds.isEmpty()) {
      return;
    }
    SparkSession spark = warehouse.spark();
    java.util.Set<String> ids = new java.util.HashSet<>(runIds);
    for (Table table : tables) {
      if (!KernelWarehouse.of(warehouse).hasRowsOf(table, ids)) {
        continue;
      }
      LOG.info("removing the rows of runs {} from {}", new java.util.TreeSet<>(ids), table.dirName());
      String path = warehouse.path(table);
      // A file whose every row goes is rewritten as a file of none, which no log names.
      EmptyDataFiles empty = EmptyDataFiles.before(spark, new org.apache.hadoop.fs.Path(path));
      retrying("delete from " + table.dirName(),
          () -> DeltaTable.forPath(spark, path).delete(col(WarehouseSchema.RUN_ID).isin(runIds.toArray())));
      empty.removeNew(java.util.Set.of());
      listener.afterDelete(table);
    }
  }

  /** Runs a Delta operation again when a concurrent commit made it lose the race on the log. */
  static void retrying(String what, Runnable operation) {
    for (int attempt = 1; ; attempt++) {
      try {
        operation.run();
        return;
      } catch (RuntimeException e) {
        if (!isConcurrentModification(e) || attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        LOG.info("{}: a concurrent commit won the race ({}); retrying ({}/{})", what, e.getClass().getSimpleName(),
            attempt, MAX_ATTEMPTS);
        try {
          Thread.sleep(50L * attempt);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private static boolean isConcurrentModification(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof DeltaConcurrentModificationException
          || c instanceof org.apache.hadoop.fs.FileAlreadyExistsException
          || c instanceof java.nio.file.FileAlreadyExistsException) {
        return true;
      }
    }
    return false;
  }
}
