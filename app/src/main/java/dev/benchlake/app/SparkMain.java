package dev.benchlake.app;

/**
 * Entry point of the spark-submit jar ({@code benchlake-spark.jar}): the Spark commands only,
 * e.g. {@code spark-submit --class dev.benchlake.app.SparkMain benchlake-spark.jar ingest …}.
 */
public final class SparkMain {
  private SparkMain() {}

  public static void main(String[] args) {
    System.exit(Benchlake.commandLine(Benchlake.SPARK_COMMANDS).execute(args));
  }
}
