package dev.benchlake.warehouse.cli;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/** The {@code --warehouse DIR} option every warehouse command takes ({@code @Mixin}). */
public final class WarehouseOption {
  @Option(names = "--warehouse", paramLabel = "DIR", defaultValue = Warehouse.DEFAULT_DIR,
      description = "Warehouse folder, local or a URI (hdfs://NAMENODE/DIR, s3a://BUCKET/DIR, file:/DIR) "
          + "(default: ${DEFAULT-VALUE}); the first ingest creates it.")
  String dir;

  /** The folder as given. */
  public String dir() {
    return dir;
  }

  /** The warehouse at that folder, read with Delta Kernel: no Spark session. */
  public KernelWarehouse openWithoutSpark() {
    return KernelWarehouse.at(dir);
  }

  /** The warehouse at that folder, read and written through {@code spark}. */
  public Warehouse open(SparkSession spark) {
    return Warehouse.at(spark, dir);
  }
}
