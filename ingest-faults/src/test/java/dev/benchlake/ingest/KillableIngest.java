package dev.benchlake.ingest;

import dev.benchlake.warehouse.spark.SparkSessions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.WarehouseWriter.CommitListener;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A real ingest process for the kill -9 test: {@code KillableIngest POINT WAREHOUSE FILE}. At
 * POINT ({@code before:rejects}, {@code after:tasks}, {@code during:tasks}, … or {@code none}) it
 * prints {@code AT POINT} on stdout; at a {@code before}/{@code after} point it then waits to be
 * killed, at {@code during:tasks} it carries on writing (the test kills it mid-write).
 */
public final class KillableIngest {
  private KillableIngest() {}

  public static void main(String[] args) throws Exception {
    String point = args[0];
    SparkSession spark = SparkSessions.getOrCreate("kill-test", "local[2]",
        Map.of("spark.ui.enabled", "false", "spark.sql.shuffle.partitions", "2"));
    spark.sparkContext().setLogLevel("ERROR");
    Warehouse warehouse = Warehouse.at(spark, args[1]);
    IngestRequest request = IngestRequest.of(Path.of(args[2])).withFormat("pgbench-log").withChunkBytes(1 << 15);
    Ingest.run(spark, warehouse, request, new CommitListener() {
      @Override
      public void beforeCommit(Table table) {
        reach("before:" + name(table), point.equals("during:" + name(table)));
      }

      @Override
      public void afterCommit(Table table) {
        reach("after:" + name(table), false);
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
}
