package dev.benchlake.warehouse.spark;

import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.warehouse.fs.ForklessLocalFileSystem;
import dev.benchlake.warehouse.fs.ForklessLocalFs;
import dev.benchlake.warehouse.fs.S3PutIfAbsentLogStore;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds benchlake's Spark session. Local by default ({@code local[*]}); the master given by
 * {@code --master}, by {@code spark.master} (as spark-submit sets it) or by {@code --conf} wins.
 * Delta Lake is always enabled.
 */
public final class SparkSessions {
  public static final String DEFAULT_MASTER = "local[*]";
  private static final Logger LOG = LoggerFactory.getLogger(SparkSessions.class);

  static final String HADOOP_PREFIX = "spark.hadoop.";

  /**
   * The Hadoop settings of a local session (without {@code spark.hadoop.}): local files without the
   * chmod and readlink processes Hadoop starts for each file it creates and each commit Delta
   * renames into place ({@link ForklessLocalFileSystem}). Local sessions only: the classes are in
   * this JVM, as they might not be on a cluster's executors. The user's settings win.
   */
  static final Map<String, String> LOCAL_HADOOP = Map.of(
      "fs.file.impl", ForklessLocalFileSystem.class.getName(),
      "fs.AbstractFileSystem.file.impl", ForklessLocalFs.class.getName());

  private SparkSessions() {}

  /** The master a session of these options runs on: {@code master}, else {@code spark.master}, else local. */
  static String resolveMaster(String master, Map<String, String> conf) {
    return master != null ? master
        : conf.getOrDefault("spark.master", System.getProperty("spark.master", DEFAULT_MASTER));
  }

  /** Spark's stage bars on the console. */
  public static final String CONSOLE_PROGRESS = "spark.ui.showConsoleProgress";

  /**
   * @param appName shown in the Spark UI and the cluster's application list
   * @param master explicit master, or null for {@code spark.master} / {@link #DEFAULT_MASTER}
   * @param conf extra Spark settings; they override benchlake's defaults
   */
  public static SparkSession getOrCreate(String appName, String master, Map<String, String> conf) {
    scala.Option<SparkSession> existing = SparkSession.getDefaultSession();
    if (existing.isDefined()) {
      // A later command of the same JVM (benchlake batch, tests): its runtime SQL settings apply;
      // the session's static ones (master, memory) stay those of the command that started it.
      SparkSession spark = existing.get();
      conf.forEach((key, value) -> {
        if (spark.conf().isModifiable(key)) {
          spark.conf().set(key, value);
        }
      });
      return spark;
    }
    String resolvedMaster = resolveMaster(master, conf);
    boolean local = resolvedMaster.startsWith("local");
    SparkSession.Builder builder = SparkSession.builder()
        .appName(appName)
        .master(resolvedMaster)
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        // Delta's commits on s3a:// as S3's put-if-absent, so that two writers cannot both take
        // one version of a table (Delta's own S3 log store is safe within one JVM only).
        .config("spark.delta.logStore.s3a.impl", S3PutIfAbsentLogStore.class.getName())
        // Timestamps in the warehouse and the reports are UTC, whatever the machine's zone.
        .config("spark.sql.session.timeZone", "UTC")
        // Timestamps as Parquet's INT64 microseconds, the standard type and Spark's own precision,
        // not Spark's legacy default INT96: a tasks table's start_ts and end_ts are nearly all
        // distinct, and INT96's 12-byte values go through a dictionary of byte arrays on every
        // write and a conversion on every read (an ingest of 1.8 million tasks: 12 % less CPU, 23 %
        // smaller files). Files written before keep INT96; readers take each file's own type.
        .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
        // After each commit Delta writes the version's checksum (.crc: size, protocol, metadata,
        // which Delta Kernel and Spark read to load a snapshot fast) and, under this setting
        // (DeltaSQLConf: "[[Snapshot.allFiles]] will be stored in the .crc file" while a table has
        // few files), the list of every data file, there to check the state Delta computes
        // incrementally. A new table's first commit has no earlier list and rebuilds it with a
        // Spark job: an ingest into a new warehouse paid one per table. The .crc is still written
        // without it (an optional field of an optional file in the Delta protocol), as for every
        // table past the threshold, and both readers read the tables as before.
        .config("spark.databricks.delta.allFilesInCrc.enabled", "false")
        // What Spark shows of its settings (UI, event log, its logs) hides what benchlake hides:
        // Spark's default pattern misses Azure's and Google Cloud's keys.
        .config("spark.redaction.regex", Redaction.sparkRegex())
        // Spark's own progress bar is the live progress of long jobs, but only on a terminal.
        .config(CONSOLE_PROGRESS, Boolean.toString(System.console() != null));
    if (local) {
      int cores = Runtime.getRuntime().availableProcessors();
      builder
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          // 200 shuffle partitions and 50 Delta snapshot partitions are sized for clusters; on one
          // machine they turn a sub-second query into seconds of task overhead.
          .config("spark.sql.shuffle.partitions", Integer.toString(Math.max(4, 2 * cores)))
          .config("spark.databricks.delta.snapshotPartitions", "2");
      LOCAL_HADOOP.forEach((key, value) -> builder.config(HADOOP_PREFIX + key, value));
    }
    // The user's settings as given, credentials included: the logging's redaction (core's Redaction)
    // replaces their values, as for anything logged.
    LOG.debug("starting Spark on {} with the settings {}", resolvedMaster, conf);
    conf.forEach(builder::config);
    return builder.getOrCreate();
  }
}
