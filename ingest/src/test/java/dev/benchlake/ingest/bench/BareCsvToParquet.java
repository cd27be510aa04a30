package dev.benchlake.ingest.bench;

import dev.benchlake.warehouse.spark.SparkSessions;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The baseline of bench/ingest.sh: Spark's bare {@code read.csv → write.parquet} of the same file,
 * in a session built exactly like benchlake's ({@link SparkSessions}, local[*]).
 * {@code BareCsvToParquet SEPARATOR HEADER(true|false) INPUT OUTPUT}.
 */
public final class BareCsvToParquet {
  private BareCsvToParquet() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSessions.getOrCreate("bare read.csv -> write.parquet", null, Map.of());
    long start = System.nanoTime();
    spark.read().option("sep", args[0]).option("header", args[1]).csv(args[2]).write().parquet(args[3]);
    System.err.printf(java.util.Locale.ROOT, "bare job: %.1f s%n", (System.nanoTime() - start) / 1e9);
    spark.stop();
  }
}
