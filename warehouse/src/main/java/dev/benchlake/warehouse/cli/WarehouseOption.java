package dev.benchlake.warehouse.cli;

import dev.benchlake.warehouse.fs.Storage;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.check.WritableWarehouse;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/** The {@code --warehouse DIR} option every warehouse command takes ({@code @Mixin}). */
public final class WarehouseOption {
  @Option(names = "--warehouse", paramLabel = "DIR", defaultValue = Warehouse.DEFAULT_DIR,
      description = "Warehouse folder, local or a URI (hdfs://NAMENODE/DIR, s3a://BUCKET/DIR, file:/DIR) "
          + "(default: ${DEFAULT-VALUE}); the first ingest creates it.")
  String dir;

  /** Whether the warehouse was found whole (by this command: a batch builds one per line). */
  private boolean checked;

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
    return KernelWarehouse.at(dir);
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
    KernelWarehouse tables = KernelWarehouse.at(dir, spark.hadoopConf()).requireWhole();
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
    Warehouse warehouse = Warehouse.at(spark, dir);
    if (!checked) {
      KernelWarehouse.of(warehouse).requireWhole();
      checked = true;
    }
    return warehouse;
  }
}
