package dev.benchlake.app.s3;

import io.delta.storage.LogStore;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * One of two processes racing for the same Delta log versions, through a Delta log store (as a
 * Spark driver commits): {@code LogStoreRace STORE_CLASS LOG_DIR GO_FILE COUNT PERIOD_MS NAME}.
 * Warmed up, it prints {@code READY} and waits for GO_FILE, which holds the start (epoch ms, set
 * once every racer is ready). For each version i it waits until {@code start + i * PERIOD_MS} (wall
 * clock: the processes share the machine's clock), then writes {@code LOG_DIR/i.json} as a commit
 * is written (no overwrite), and prints {@code i OK} or {@code i EXISTS} (the store said the
 * version is taken). s3a settings come as {@code -Dspark.hadoop.*} system properties, credentials from the
 * AWS environment variables.
 */
public final class LogStoreRace {
  private LogStoreRace() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("spark.hadoop."))
        .forEach(k -> conf.set(k.substring("spark.hadoop.".length()), System.getProperty(k)));
    LogStore store = (LogStore) Class.forName(args[0]).getConstructor(Configuration.class).newInstance(conf);
    String dir = args[1];
    java.nio.file.Path go = java.nio.file.Path.of(args[2]);
    int count = Integer.parseInt(args[3]);
    long periodMs = Long.parseLong(args[4]);
    String name = args[5];
    // Warm up (file system, S3 client, classes) so that the timed writes are alike in both processes.
    store.write(new Path(dir + "/warm-up-" + name), List.of("{}").iterator(), true, conf);
    System.out.println("READY");
    System.out.flush();
    while (!java.nio.file.Files.exists(go)) {
      Thread.sleep(10);
    }
    long start = Long.parseLong(java.nio.file.Files.readString(go).strip());
    for (int i = 0; i < count; i++) {
      long wait = start + i * periodMs - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      Path version = new Path(String.format(Locale.ROOT, "%s/%020d.json", dir, i));
      String commit = String.format(Locale.ROOT, "{\"commitInfo\":{\"writer\":\"%s\",\"version\":%d}}", name, i);
      try {
        store.write(version, List.of(commit).iterator(), false, conf);
        System.out.println(i + " OK");
      } catch (java.nio.file.FileAlreadyExistsException e) {
        System.out.println(i + " EXISTS");
      }
      System.out.flush();
    }
    System.exit(0);
  }
}
