package dev.benchlake.warehouse.spark;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;

/**
 * One shared {@code local[2]} Spark session (with Delta) for every test class of a test JVM:
 * starting Spark costs seconds, so it starts once and is stopped by Spark's shutdown hook.
 * Extend this class; use {@link #spark} in tests.
 */
// Every test that starts Spark is in the integration tier; @Tag is inherited by subclasses.
@org.junit.jupiter.api.Tag("integration")
public abstract class SparkTestBase {
  protected static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    if (spark == null) {
      spark = SparkSessions.getOrCreate("benchlake-tests", "local[2]", Map.of(
          "spark.sql.shuffle.partitions", "2",
          "spark.default.parallelism", "2",
          "spark.ui.enabled", "false",
          "spark.sql.adaptive.enabled", "true",
          "spark.databricks.delta.snapshotPartitions", "1"));
      spark.sparkContext().setLogLevel("WARN");
    }
  }
}
