package dev.benchlake.warehouse;

import static org.apache.spark.sql.functions.col;

import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import io.delta.exceptions.DeltaConcurrentModificationException;
import io.delta.tables.DeltaTable;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one ingest into a warehouse, atomically and idempotently.
 *
 * <p>Delta commits are atomic per table, not across tables, so an ingest appends the data tables
 * first ({@code rejects}, {@code step_metrics}, {@code tasks}) and the {@code runs} rows last:
 * those rows are the commit point, and {@link Warehouse} shows no data of a run without one. Every
 * append carries Delta's {@code txnAppId} = the ingest's key and a {@code txnVersion}, and Delta
 * skips an append whose (app id, version) it has already committed; so re-running an ingest that
 * was killed half-way with the same version adds only what is missing, exactly once.
 *
 * <p>Concurrent ingests of different inputs are blind appends, which Delta lets through (a commit
 * that loses a race on the log is retried here). Ingests of the same input are serialised by
 * {@link RunLocks} before they get here.
 */
public final class WarehouseWriter {
  private static final Logger LOG = LoggerFactory.getLogger(WarehouseWriter.class);
  /** The version of a first ingest of a key; replacements and clean-ups use later versions. */
  public static final long FIRST_VERSION = 1L;
  private static final int MAX_ATTEMPTS = 8;
  /** The tables an ingest appends to before its commit point. */
  private static final List<Table> DATA_TABLES = List.of(Table.TASKS, Table.STEP_METRICS, Table.REJECTS,
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

  /** Told before and after each table's commit: progress messages, and fault injection in tests. */
  public interface CommitListener {
    CommitListener NONE = new CommitListener() { };

    default void beforeCommit(Table table) {}

    default void afterCommit(Table table) {}
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
   * Appends {@code batch} under {@code ingestKey} (a content hash of the inputs).
   *
   * @param txnVersion {@link #FIRST_VERSION} for a first ingest; a larger number than any earlier
   *     one for this key (e.g. the current time in ms) after rows were deleted
   */
  public void append(String ingestKey, Batch batch, long txnVersion) {
    WarehouseFormat.requireWritable(warehouse);
    try (RunLocks lock = RunLocks.acquire(warehouse, List.of("create format"))) {
      // Before any table exists, so that a folder with tables always says its format.
      WarehouseFormat.initialiseIfEmpty(warehouse);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    for (Table table : Table.values()) {
      String appId = "benchlake-ingest:" + ingestKey;
      String userMetadata = "benchlake ingest " + ingestKey;
      if (table == Table.TASKS && batch.stagedTasks() != null) {
        if (batch.empty().contains(table)) {
          batch.stagedTasks().discard();
          continue;
        }
        listener.beforeCommit(table);
        batch.stagedTasks().commit(appId, txnVersion, userMetadata);
        listener.afterCommit(table);
        continue;
      }
      if (table != Table.RUNS && batch.empty().contains(table)) {
        continue; // its rows may be null then (an ingest whose parsers give no tasks has none)
      }
      // One row per run or per file: one Parquet file per ingest, written by one task, not one
      // per core (Delta Kernel readers open every file: a warehouse of N ingests is N files, not 2N).
      Dataset<Row> rows = ONE_FILE_TABLES.contains(table) ? batch.rows(table).coalesce(1) : batch.rows(table);
      if (!sameColumns(rows.schema(), table.schema())) {
        throw new IllegalArgumentException("rows for " + table.dirName() + " do not match its schema:\n"
            + rows.schema().treeString() + "expected:\n" + table.schema().treeString());
      }
      listener.beforeCommit(table);
      String path = warehouse.path(table);
      // Delta takes a writer's "delta.*" options as the properties of a table it creates.
      Runnable write = () -> retrying("append to " + table.dirName(), () -> rows.write()
          .format("delta")
          .mode(SaveMode.Append)
          .options(table.properties())
          .option("txnAppId", appId)
          .option("txnVersion", txnVersion)
          .option("userMetadata", userMetadata)
          .save(path));
      if (DeltaTable.isDeltaTable(warehouse.spark(), path)) {
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
   * Same column names and types in the same order. Nullability may differ: a column computed from
   * nullable intermediate data is declared nullable by Spark even when it never is, and Delta
   * checks the table's NOT NULL columns on every write anyway.
   */
  static boolean sameColumns(StructType rows, StructType table) {
    if (rows.fields().length != table.fields().length) {
      return false;
    }
    for (int i = 0; i < rows.fields().length; i++) {
      StructField a = rows.fields()[i];
      StructField b = table.fields()[i];
      if (!a.name().equals(b.name()) || !a.dataType().equals(b.dataType())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Deletes every row of these runs from every table, committed or orphaned (runs first, so that
   * readers never see a run whose tasks are half gone).
   */
  public void deleteRuns(List<String> runIds) {
    delete(runIds, List.of(Table.RUNS, Table.TASKS, Table.STEP_METRICS, Table.REJECTS, Table.INGEST_FILES));
  }

  /**
   * Deletes rows of these runs from the data tables only: rows an ingest killed before its commit
   * point left behind (invisible to readers, but they would become visible with the next commit
   * of the same run id).
   */
  public void deleteOrphans(List<String> runIds) {
    delete(runIds, DATA_TABLES);
  }

  /**
   * Whether any data table holds rows of these runs. Asked before every commit into an existing
   * warehouse: read on the driver with Delta Kernel ({@link KernelWarehouse#hasRowsOf}: the files'
   * run_id statistics rule out all of them for new runs), where four Spark queries each rebuilt a
   * table's Delta snapshot and scanned it. Fresh snapshots: the ingest has just written.
   */
  public boolean hasRowsOf(List<String> runIds) {
    if (runIds.isEmpty()) {
      return false;
    }
    KernelWarehouse tables = KernelWarehouse.of(warehouse);
    java.util.Set<String> ids = new java.util.HashSet<>(runIds);
    for (Table table : DATA_TABLES) {
      if (tables.hasRowsOf(table, ids)) {
        return true;
      }
    }
    return false;
  }

  private void delete(List<String> runIds, List<Table> tables) {
    if (runIds.isEmpty()) {
      return;
    }
    SparkSession spark = warehouse.spark();
    for (Table table : tables) {
      String path = warehouse.path(table);
      if (DeltaTable.isDeltaTable(spark, path)) {
        retrying("delete from " + table.dirName(),
            () -> DeltaTable.forPath(spark, path).delete(col(WarehouseSchema.RUN_ID).isin(runIds.toArray())));
      }
    }
  }

  /** Runs a Delta operation again when a concurrent commit made it lose the race on the log. */
  private static void retrying(String what, Runnable operation) {
    retrying(what, () -> {
      operation.run();
      return null;
    });
  }

  private static <T> T retrying(String what, Supplier<T> operation) {
    for (int attempt = 1; ; attempt++) {
      try {
        return operation.get();
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
