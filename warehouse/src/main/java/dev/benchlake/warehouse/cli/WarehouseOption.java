package dev.benchlake.warehouse.cli;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.FailureExplainer;
import dev.benchlake.warehouse.fs.Storage;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.check.WritableWarehouse;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/**
 * The {@code --warehouse DIR} option every warehouse command takes ({@code @Mixin}); it also tells
 * a read that failed on a damaged data file of the warehouse from a runtime failure
 * ({@link #explain}).
 */
public final class WarehouseOption implements FailureExplainer {
  @Option(names = "--warehouse", paramLabel = "DIR", defaultValue = Warehouse.DEFAULT_DIR,
      description = "Warehouse folder, local or a URI (hdfs://NAMENODE/DIR, s3a://BUCKET/DIR, file:/DIR) "
          + "(default: ${DEFAULT-VALUE}); the first ingest creates it.")
  String dir;

  /** Whether the warehouse was found whole (by this command: a batch builds one per line). */
  private boolean checked;
  /** The Hadoop settings the warehouse was opened on (a session's, with its --conf), once it was. */
  private Configuration conf;

  /**
   * Checks the option's form before anything runs ({@code Validated}): a location that carries
   * credentials is refused ({@link Storage#location}). Whether a warehouse is there is not
   * checked: an earlier line of a batch may make it.
   */
  public void validate() {
    Storage.location(dir);
  }

  /** The folder when it is local (a batch's later lines may read it), else empty. */
  public java.util.Optional<java.nio.file.Path> localDir() {
    org.apache.hadoop.fs.Path location = Storage.location(dir);
    return Storage.isLocal(location) ? java.util.Optional.of(java.nio.file.Path.of(location.toUri().getPath()))
        : java.util.Optional.empty();
  }

  /** The folder as given. */
  public String dir() {
    return dir;
  }

  /** The warehouse at that folder, read with Delta Kernel: no Spark session. */
  public KernelWarehouse openWithoutSpark() {
    conf = new Configuration();
    return KernelWarehouse.at(dir, conf);
  }

  /**
   * Before a command that reads with Spark starts its session (compare, trend): the warehouse
   * whole, read with Delta Kernel in a second ({@link KernelWarehouse#requireWhole}), so that a
   * damaged one (or a path that is a file, a newer format) is one line before Spark's start, not
   * after it.
   *
   * @param spark the command's Spark options: their Hadoop settings reach the files
   */
  public KernelWarehouse openWholeBeforeSpark(SparkOptions spark) {
    conf = spark.hadoopConf();
    KernelWarehouse tables = KernelWarehouse.at(dir, conf).requireWhole();
    checked = true;
    return tables;
  }

  /**
   * Before a command that writes starts its session (ingest, upgrade): the warehouse whole, as
   * {@link #openWholeBeforeSpark}, and a folder it can write ({@link WritableWarehouse}): a write
   * never adds a version to a table that lost a file, nor fails halfway on a read-only folder.
   */
  public KernelWarehouse openWholeForWriting(SparkOptions spark) {
    KernelWarehouse tables = openWholeBeforeSpark(spark);
    WritableWarehouse.require(dir);
    return tables;
  }

  /**
   * The warehouse at that folder, read and written through {@code spark}; checked whole first
   * (on the session's Hadoop settings) unless it was before the session started.
   */
  public Warehouse open(SparkSession spark) {
    conf = spark.sparkContext().hadoopConfiguration();
    Warehouse warehouse = Warehouse.at(spark, dir);
    if (!checked) {
      KernelWarehouse.of(warehouse).requireWhole();
      checked = true;
    }
    return warehouse;
  }

  /**
   * A read that failed on a data file of this warehouse whose bytes are damaged (Spark's jobs say
   * so as "Checksum error: file:/…" or "… is not a Parquet file", exit 1): that file named, exit 2,
   * pointing at {@code verify --deep}. The Kernel readers say it themselves.
   */
  @Override
  public BadInputException explain(Throwable failure) {
    try {
      return KernelWarehouse.ignoringFormat(dir, conf == null ? new Configuration() : conf).damagedDataFileBehind(failure);
    } catch (RuntimeException notExplained) {
      failure.addSuppressed(notExplained);
      return null;
    }
  }
}
