package dev.benchlake.warehouse.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Which small reads go to Spark: only those where the user asked for it. */
class SparkOptionsTest {
  @Command(name = "x")
  static final class WithOptions {
    @Mixin
    SparkOptions spark;
  }

  private static boolean requested(String... args) {
    WithOptions command = new WithOptions();
    new CommandLine(command).parseArgs(args);
    return command.spark.sparkRequested();
  }

  @Test
  void noSparkOptionMeansNoSession() {
    assertThat(System.getProperty("spark.master")).as("not under spark-submit").isNull();
    assertThat(requested()).isFalse();
  }

  @Test
  void aMasterOrAnySettingAsksForSpark() {
    assertThat(requested("--master", "local[2]")).isTrue();
    assertThat(requested("--conf", "spark.hadoop.fs.s3a.endpoint=http://x")).isTrue();
  }
}
