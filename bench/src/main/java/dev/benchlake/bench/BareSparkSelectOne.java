package dev.benchlake.bench;

import org.apache.spark.sql.SparkSession;

/**
 * The yardstick of bench/startup.sh: a bare Spark local session (no Delta, no benchlake) that
 * starts, runs {@code select 1} and exits, on the same class path and JVM flags as bin/benchlake.
 * Only the settings any local run needs: the UI off and the driver on the loopback address.
 */
public final class BareSparkSelectOne {
  private BareSparkSelectOne() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("bare select 1").master("local[*]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate();
    long one = spark.sql("select 1").collectAsList().get(0).getInt(0);
    // Exits as bin/benchlake's commands do: Spark's shutdown hook stops the session.
    System.exit(one == 1 ? 0 : 1);
  }
}
