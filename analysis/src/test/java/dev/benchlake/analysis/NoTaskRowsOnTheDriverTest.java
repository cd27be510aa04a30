package dev.benchlake.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.testing.WarehouseFixture;
import dev.benchlake.analysis.testing.WarehouseFixture.Run;
import dev.benchlake.analysis.testing.WarehouseFixture.Task;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare brings per-run and per-step aggregates to the driver, never task rows: the bytes the
 * driver receives from Spark tasks ({@code resultSize}, what collect() ships) stay about the same
 * when every run has ten times the tasks. A stage that collected rows would grow tenfold. (The
 * Hodges–Lehmann sample is capped at 500 tasks per group here, as it is at 100,000 by default.)
 * trend sorts with the same engine ({@code WarehouseTasks.sort}); the runs rows and whole-run
 * step_metrics it reads besides come from Delta Kernel on the driver, not from Spark tasks, so it
 * is not run again here.
 */
@Tag("integration")
class NoTaskRowsOnTheDriverTest extends SparkTestBase {
  @TempDir
  static Path tmp;

  @Test
  void driverResultBytesDoNotGrowWithTheTasks() throws Exception {
    long small = resultBytes(2_000, "small");
    long large = resultBytes(20_000, "large");
    assertThat(large).as("driver result bytes: %d at 2,000 tasks per run, %d at 20,000", small, large)
        .isPositive().isLessThan(small * 3 / 2);
  }

  /** Result bytes of a compare of 2 vs 2 runs of {@code tasksPerRun} tasks in one step (what a stage collects per step does not depend on the number of steps). */
  private static long resultBytes(int tasksPerRun, String name) throws Exception {
    SplittableRandom random = new SplittableRandom(16);
    List<Run> runs = new ArrayList<>();
    List<Task> tasks = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      String id = name + "-" + r;
      runs.add(new Run(id, Map.of("os", r % 2 == 0 ? "a" : "b")));
      for (int i = 0; i < tasksPerRun; i++) {
        tasks.add(Task.ok(id, "read", (long) (1e6 * Math.exp(0.3 * random.nextGaussian()))));
      }
    }
    Warehouse warehouse = WarehouseFixture.write(spark, tmp.resolve(name).toString(), runs, tasks);
    AtomicLong bytes = new AtomicLong();
    SparkListener listener = new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        if (end.taskMetrics() != null) {
          bytes.addAndGet(end.taskMetrics().resultSize());
        }
      }
    };
    spark.sparkContext().addSparkListener(listener);
    try {
      Compare.run(warehouse, CompareRequest.of("os=a", "os=b").withTuning(
          CompareRequest.Tuning.DEFAULT.withHodgesLehmannExactLimit(500).withPartitions(2)));
      spark.sparkContext().listenerBus().waitUntilEmpty();
      return bytes.get();
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
  }
}
