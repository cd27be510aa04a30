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

  private static org.apache.hadoop.conf.Configuration hadoopConf(String... args) {
    WithOptions command = new WithOptions();
    new CommandLine(command).parseArgs(args);
    return command.spark.hadoopConf();
  }

  /** Before Spark starts, file: is the file system a local session will have; a cluster's is Hadoop's; --conf wins. */
  @Test
  void aLocalSessionsFilesAreTheForklessOnes() {
    assertThat(hadoopConf().get("fs.file.impl"))
        .isEqualTo(dev.benchlake.warehouse.fs.ForklessLocalFileSystem.class.getName());
    assertThat(hadoopConf("--master", "local[2]").get("fs.AbstractFileSystem.file.impl"))
        .isEqualTo(dev.benchlake.warehouse.fs.ForklessLocalFs.class.getName());
    assertThat(hadoopConf("--master", "spark://host:7077").get("fs.file.impl")).isNull();
    assertThat(hadoopConf("--master", "spark://host:7077").get("fs.AbstractFileSystem.file.impl"))
        .isEqualTo("org.apache.hadoop.fs.local.LocalFs");
    assertThat(hadoopConf("--conf", "spark.hadoop.fs.file.impl=org.apache.hadoop.fs.LocalFileSystem").get("fs.file.impl"))
        .isEqualTo("org.apache.hadoop.fs.LocalFileSystem");
  }
}
