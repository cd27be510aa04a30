package dev.benchlake.ingest;

import dev.benchlake.warehouse.spark.SparkSessions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.write.WarehouseWriter.CommitListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A real ingest process for the kill -9 tests: {@code KillableIngest POINT WAREHOUSE [--replace]
 * FILE…} (formats detected). At POINT it prints {@code AT POINT} on stdout; at a stopping point it
 * then waits to be killed, at {@code during:T} it carries on writing (the test kills it mid-write).
 * Points:
 * <ul>
 *   <li>{@code before:T}, {@code after:T}: before or after the append to table T (lower case);
 *   <li>{@code during:T}: from the start of that append on, without stopping;
 *   <li>{@code commit:N}: right after the N-th commit this ingest makes, appends and clean-up
 *       DELETEs alike ({@link CommitListener#afterCommit}, {@link CommitListener#afterDelete});
 *   <li>{@code none}: runs to the end.
 * </ul>
 */
public final class KillableIngest {
  private KillableIngest() {}

  public static void main(String[] args) throws Exception {
    String point = args[0];
    boolean replace = args[2].equals("--replace");
    List<Path> files = new ArrayList<>();
    for (int i = replace ? 3 : 2; i < args.length; i++) {
      files.add(Path.of(args[i]));
    }
    SparkSession spark = SparkSessions.getOrCreate("kill-test", "local[2]",
        Map.of("spark.ui.enabled", "false", "spark.sql.shuffle.partitions", "2"));
    spark.sparkContext().setLogLevel("ERROR");
    Warehouse warehouse = Warehouse.at(spark, args[1]);
    IngestRequest request = IngestRequest.of(files.toArray(Path[]::new)).withChunkBytes(1 << 15).withReplace(replace);
    Ingest.run(spark, warehouse, request, new CommitListener() {
      private int commits;

      @Override
      public void beforeCommit(Table table) {
        reach("before:" + name(table), point.equals("during:" + name(table)));
      }

      @Override
      public void afterCommit(Table table) {
        reach("commit:" + ++commits, false);
        reach("after:" + name(table), false);
      }

      @Override
      public void afterDelete(Table table) {
        reach("commit:" + ++commits, false);
      }

      private void reach(String here, boolean carryOn) {
        if (point.equals(here) || carryOn) {
          System.out.println("AT " + point);
          System.out.flush();
          while (!carryOn) {
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
        }
      }
    });
    System.out.println("DONE");
    System.exit(0);
  }

  private static String name(Table table) {
    return table.dirName().toLowerCase(Locale.ROOT);
  }

  /** Starts {@code KillableIngest point warehouse [--replace] files…} as a child JVM; its stderr goes to {@code stderr}. */
  static Process start(String point, Path warehouse, boolean replace, Path stderr, Path... files) throws IOException {
    List<String> args = new ArrayList<>(List.of(point, warehouse.toString()));
    if (replace) {
      args.add("--replace");
    }
    for (Path file : files) {
      args.add(file.toString());
    }
    return new ProcessBuilder(ChildJvm.command(KillableIngest.class, args.toArray(String[]::new)))
        .redirectError(stderr.toFile()).start();
  }

  /** Waits until {@code process} prints {@code AT point}; fails if it ends first. */
  static void awaitPoint(Process process, String point) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      if (line.equals("AT " + point)) {
        return;
      }
    }
    throw new AssertionError("the ingest process ended without reaching " + point);
  }
}
