package dev.benchlake.warehouse.spark;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/** The Spark options every Spark command takes ({@code @Mixin}). */
public final class SparkOptions {
  private static final String HADOOP_PREFIX = SparkSessions.HADOOP_PREFIX;

  @Option(names = "--master", paramLabel = "URL",
      description = "Spark master, e.g. spark://host:7077. Default: spark.master if set (spark-submit sets it), else local[*].")
  String master;

  @Option(names = "--conf", paramLabel = "KEY=VALUE", mapFallbackValue = "",
      description = "A Spark setting, e.g. --conf spark.driver.memory=4g (repeatable).")
  Map<String, String> conf = new LinkedHashMap<>();

  /**
   * Whether the user asked for Spark: {@code --master}, a {@code --conf}, or spark-submit's
   * {@code spark.master}. The small reads ({@code runs}, {@code export} of the small tables,
   * {@code rejects}) then run on Spark as asked (a cluster, a Hadoop setting through
   * {@code spark.hadoop.*}); otherwise they read with Delta Kernel and start no session.
   */
  public boolean sparkRequested() {
    return master != null || !conf.isEmpty() || System.getProperty("spark.master") != null;
  }

  /**
   * The Hadoop settings the session will have, without starting it: the defaults and every
   * {@code spark.hadoop.*} setting (given with {@code --conf}, or by spark-submit as a system
   * property) without its prefix, as Spark copies them into the session's. For reading the
   * warehouse with Delta Kernel before Spark starts (an s3a:// warehouse's credentials come this way).
   */
  public Configuration hadoopConf() {
    Configuration hadoop = new Configuration();
    // Also so that the file system Hadoop caches for file: before Spark starts is the session's.
    if (SparkSessions.resolveMaster(master, conf).startsWith("local")) {
      SparkSessions.LOCAL_HADOOP.forEach(hadoop::set);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    System.getProperties().stringPropertyNames().forEach(key -> settings.put(key, System.getProperty(key)));
    settings.putAll(conf);
    settings.forEach((key, value) -> {
      if (key.startsWith(HADOOP_PREFIX) && key.length() > HADOOP_PREFIX.length()) {
        hadoop.set(key.substring(HADOOP_PREFIX.length()), value);
      }
    });
    return hadoop;
  }

  /** The session for the command {@code appName}. */
  public SparkSession session(String appName) {
    return SparkSessions.getOrCreate("benchlake " + appName, master, conf);
  }

  /**
   * The session of a command that prints progress of its own (the quickstart, a study): Spark's stage bars
   * only when {@code progress} ({@code --verbose}) or a {@code --conf spark.ui.showConsoleProgress} asks for
   * them, since they would break into its status lines.
   */
  public SparkSession session(String appName, boolean progress) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(SparkSessions.CONSOLE_PROGRESS, Boolean.toString(progress && System.console() != null));
    settings.putAll(conf);
    return SparkSessions.getOrCreate("benchlake " + appName, master, settings);
  }
}
