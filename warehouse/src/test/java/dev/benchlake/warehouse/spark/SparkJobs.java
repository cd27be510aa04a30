package dev.benchlake.warehouse.spark;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/** How many Spark jobs a piece of test code starts: a proof that a read needs no Spark job. */
public final class SparkJobs {
  private SparkJobs() {}

  /** What {@link #during} runs. */
  public interface Body {
    void run() throws Exception;
  }

  /** The jobs {@code spark} started while {@code body} ran (the listener bus drained before counting). */
  public static int during(SparkSession spark, Body body) throws Exception {
    AtomicInteger jobs = new AtomicInteger();
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart start) {
        jobs.incrementAndGet();
      }
    };
    spark.sparkContext().addSparkListener(listener);
    try {
      body.run();
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    return jobs.get();
  }
}
