package dev.benchlake.warehouse.write;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import io.delta.exceptions.DeltaConcurrentModificationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.DeltaOperations;
import org.apache.spark.sql.delta.DeltaOptions;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.FileAction;
import org.apache.spark.sql.delta.actions.SetTransaction;
import org.apache.spark.sql.delta.commands.WriteIntoDelta;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Rows written as data files of a Delta table but not committed: Delta readers see only the files
 * its log names, so until {@link #commit} they are invisible, and a refused ingest {@link #discard}s
 * them (an ingest killed before its commit leaves them unnamed in the table's folder, where
 * Delta's {@code VACUUM} removes them).
 *
 * <p>This is what lets ingest parse every line once: the tasks are written while the accounting
 * is gathered, and committed (or not) once the accounting has been checked. The write is Delta's
 * own {@link WriteIntoDelta} (schema checks, a new table's metadata, per-file statistics), split
 * from its commit. Every append of {@code WarehouseWriter} is one, so that a write that fails (a
 * full disk) removes the files it wrote, in every table ({@link RemovingCommitProtocol}).
 */
public final class StagedAppend {
  private static final Logger LOG = LoggerFactory.getLogger(StagedAppend.class);
  private static final int MAX_ATTEMPTS = 8;
  /** Delta's temporary file of a commit to a local or HDFS log, renamed to {@code N.json} once whole. */
  private static final java.util.regex.Pattern TEMPORARY_COMMIT = java.util.regex.Pattern.compile(
      "\\.(\\d{20})\\.json\\.[0-9a-fA-F-]{36}\\.tmp");

  private final SparkSession spark;
  private final Table table;
  private final String path;
  private final OptimisticTransaction txn;
  private final List<Action> actions;
  private State state = State.STAGED;

  private enum State { STAGED, COMMITTING, DONE }

  private StagedAppend(SparkSession spark, Table table, String path, OptimisticTransaction txn, List<Action> actions) {
    this.spark = spark;
    this.table = table;
    this.path = path;
    this.txn = txn;
    this.actions = actions;
  }

  /**
   * Writes {@code rows} (one Spark job) as data files of the warehouse's {@code table}, uncommitted.
   * If the write fails, the files it wrote are removed.
   */
  public static StagedAppend write(Warehouse warehouse, Table table, Dataset<Row> rows) {
    if (!sameColumns(rows.schema(), table.schema())) {
      throw new IllegalArgumentException("rows for " + table.dirName() + " do not match its schema:\n"
          + rows.schema().treeString() + "expected:\n" + table.schema().treeString());
    }
    SparkSession spark = warehouse.spark();
    String path = warehouse.path(table);
    DeltaLog log = DeltaLog.forTable(spark, path);
    OptimisticTransaction txn = new StagingTransaction(log);
    if (TableProperties.ensure(warehouse, table, path, txn)) {
      txn = new StagingTransaction(log); // the write collects statistics as the table's metadata now says
    }
    EmptyDataFiles empty = EmptyDataFiles.before(spark, log.dataPath());
    WriteIntoDelta write = new WriteIntoDelta(log, SaveMode.Append,
        new DeltaOptions(scalaMap(java.util.Map.of()), spark.sessionState().conf()),
        CollectionConverters.asScala(List.<String>of()).toList(),
        scalaMap(table.properties()),
        rows, Option.empty(), Option.empty());
    List<Action> actions;
    try {
      actions = new ArrayList<>(CollectionConverters.asJava(write.write(txn, spark, Option.empty(), false)));
    } catch (Exception e) { // Spark's own exceptions are checked ones, thrown from Scala undeclared
      // Its files are gone (RemovingCommitProtocol); a table it would have created leaves no folder.
      try {
        removeFoldersOfNoTable(spark, txn);
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    java.util.Set<String> named = new java.util.HashSet<>();
    for (Action action : actions) {
      if (action instanceof AddFile add) {
        named.add(add.absolutePath(log).getName());
      }
    }
    empty.removeNew(named);
    return new StagedAppend(spark, table, path, txn, actions);
  }

  private static scala.collection.immutable.Map<String, String> scalaMap(java.util.Map<String, String> map) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
  }

  /** How many data files were written (none when there were no rows). */
  public int files() {
    return (int) actions.stream().filter(a -> a instanceof AddFile).count();
  }

  /**
   * Commits the staged files with Delta's {@code (appId, version)} transaction mark, unless that
   * app id already committed this version or a later one (then the files are discarded: the rows
   * are in the table already), as Delta's {@code txnAppId}/{@code txnVersion} writer options do.
   * A commit that loses a race it cannot merge (two first ingests creating the table) is retried
   * with a fresh transaction on the same files.
   */
  public void commit(String appId, long version, String userMetadata) {
    if (state != State.STAGED) {
      throw new IllegalStateException("staged append to " + table.dirName() + " already " + state);
    }
    state = State.COMMITTING;
    long startedMs = System.currentTimeMillis();
    try {
      commitRetrying(appId, version, userMetadata);
    } catch (Throwable e) { // an IOException from Scala, or Hadoop's FSError (an Error) for a full disk
      removeIfNotCommitted(appId, version, startedMs, e);
      throw e;
    }
  }

  private void commitRetrying(String appId, long version, String userMetadata) {
    OptimisticTransaction current = txn;
    List<Action> toCommit = actions;
    for (int attempt = 1; ; attempt++) {
      if (current.txnVersion(appId) >= version) {
        LOG.info("{}: {} already committed version {}; nothing added", table.dirName(), appId, version);
        state = State.STAGED;
        discard();
        return;
      }
      List<Action> all = new ArrayList<>(toCommit);
      all.add(new SetTransaction(appId, version, Option.apply(System.currentTimeMillis())));
      try {
        current.commit(CollectionConverters.asScala(all).toList(),
            new DeltaOperations.Write(SaveMode.Append, Option.empty(), Option.empty(), Option.apply(userMetadata)));
        state = State.DONE;
        return;
      } catch (RuntimeException e) {
        if (!(e instanceof DeltaConcurrentModificationException) || attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        LOG.info("commit to {}: a concurrent commit won the race ({}); retrying ({}/{})", table.dirName(),
            e.getClass().getSimpleName(), attempt, MAX_ATTEMPTS);
        current = DeltaLog.forTable(spark, path).startTransaction();
        // The table exists now (made by the winner, with this build's schema): only the files go in.
        toCommit = current.readVersion() < 0 ? actions
            : actions.stream().filter(a -> a instanceof FileAction).toList();
      }
    }
  }

  /**
   * After a commit that failed (a full disk as Delta wrote the log's file): the staged files, and
   * the temporary log file Delta was writing (it leaves it when the disk fills as the file is made),
   * unless the commit landed after all. Whether it did is read from the log (this append's
   * transaction mark); a log that cannot be read leaves them (a file a commit may name is never
   * removed), no log naming them, for Delta's {@code VACUUM}.
   */
  private void removeIfNotCommitted(String appId, long version, long startedMs, Throwable failure) {
    try {
      DeltaLog log = DeltaLog.forTable(spark, path);
      OptimisticTransaction now = log.startTransaction();
      if (now.txnVersion(appId) >= version) {
        return;
      }
      state = State.STAGED;
      discard();
      removeTemporaryCommits(log, now.readVersion(), startedMs);
    } catch (RuntimeException notRemoved) {
      failure.addSuppressed(notRemoved);
    }
  }

  /**
   * Delta's temporary files of a commit ({@code _delta_log/.N.json.UUID.tmp}, renamed to
   * {@code N.json} when whole) of a version no commit has, made since {@code sinceMs}: this
   * append's failed attempt. (Another writer's attempt at the same moment, on a disk full for it
   * too, is the only other one.)
   */
  private void removeTemporaryCommits(DeltaLog log, long latestVersion, long sinceMs) {
    try {
      FileSystem fs = log.logPath().getFileSystem(spark.sparkContext().hadoopConfiguration());
      for (org.apache.hadoop.fs.FileStatus file : fs.listStatus(log.logPath())) {
        java.util.regex.Matcher temporary = TEMPORARY_COMMIT.matcher(file.getPath().getName());
        if (file.isFile() && temporary.matches() && Long.parseLong(temporary.group(1)) > latestVersion
            && file.getModificationTime() >= sinceMs - 1000) {
          fs.delete(file.getPath(), false);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove the temporary files of a failed commit in " + log.logPath(), e);
    }
  }

  /**
   * The folders a staged write of a new table made, when the table's folder holds no file: the
   * table's folder with its log folder (and the {@code _staged_commits} folder Delta makes in it).
   * Never the log folder alone: Delta makes it before a table's first data file, so a table folder
   * with data files and no log folder is one whose log was lost ({@code LostTableCheck}), and
   * another ingest's staged files may be there.
   */
  private static void removeFoldersOfNoTable(SparkSession spark, OptimisticTransaction txn) {
    if (txn.readVersion() >= 0) {
      return;
    }
    Path dir = txn.deltaLog().dataPath();
    try {
      FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
      if (fs.exists(dir) && !fs.listFiles(dir, true).hasNext()) {
        fs.delete(dir, true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove the empty folders of " + dir, e);
    }
  }

  /**
   * Deletes the staged files: for a refused ingest. Does nothing once a commit was tried (a commit
   * that failed has removed them itself when the log shows it did not land).
   */
  public void discard() {
    if (state != State.STAGED) {
      return;
    }
    state = State.DONE;
    DeltaLog log = DeltaLog.forTable(spark, path);
    try {
      for (Action action : actions) {
        if (action instanceof AddFile add) {
          Path file = add.absolutePath(log);
          FileSystem fs = file.getFileSystem(spark.sparkContext().hadoopConfiguration());
          fs.delete(file, false);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove the uncommitted files of " + path, e);
    }
    removeFoldersOfNoTable(spark, txn);
  }

  /**
   * Same column names and types in the same order. Nullability may differ: a column computed from
   * nullable intermediate data is declared nullable by Spark even when it never is, and Delta
   * checks the table's NOT NULL columns on every write anyway.
   */
  private static boolean sameColumns(StructType rows, StructType table) {
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
}
