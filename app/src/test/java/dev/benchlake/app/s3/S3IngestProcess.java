package dev.benchlake.app.s3;

import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.write.WarehouseWriter.CommitListener;
import dev.benchlake.warehouse.spark.SparkSessions;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A real ingest process for S3RoundTripIT: {@code S3IngestProcess POINT WAREHOUSE INPUT…}, its s3a
 * settings as {@code -Dspark.hadoop.*} system properties (Spark reads them) and its credentials
 * from the AWS environment variables. It prints {@code SPARK UP} once its session runs. At POINT ({@code after:tasks}: the tasks committed, the runs
 * not yet) it prints {@code AT POINT} and waits to be killed; with {@code none} it ingests. It
 * prints the ingest's messages (as {@code benchlake ingest} does on stderr) and each run as
 * {@code RUN id outcome tasks}.
 */
public final class S3IngestProcess {
  private S3IngestProcess() {}

  public static void main(String[] args) throws Exception {
    String point = args[0];
    SparkSession spark = SparkSessions.getOrCreate("s3-ingest", "local[2]",
        Map.of("spark.ui.enabled", "false", "spark.sql.shuffle.partitions", "2"));
    spark.sparkContext().setLogLevel("ERROR");
    System.out.println("SPARK UP");
    System.out.flush();
    Warehouse warehouse = Warehouse.at(spark, args[1]);
    IngestRequest request = IngestRequest.of(Arrays.copyOfRange(args, 2, args.length))
        .withMessages(m -> System.out.println(m));
    IngestResult result = Ingest.run(spark, warehouse, request, new CommitListener() {
      @Override
      public void afterCommit(Table table) {
        if (point.equals("after:" + table.dirName().toLowerCase(Locale.ROOT))) {
          System.out.println("AT " + point);
          System.out.flush();
          while (true) {
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
    result.runs().forEach(r -> System.out.println("RUN " + r.runId() + " " + r.outcome() + " " + r.tasks()));
    System.out.flush();
    System.exit(0);
  }
}
