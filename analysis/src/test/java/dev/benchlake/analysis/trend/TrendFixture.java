package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.testing.WarehouseFixture;
import dev.benchlake.analysis.testing.WarehouseFixture.Metric;
import dev.benchlake.analysis.testing.WarehouseFixture.Run;
import dev.benchlake.analysis.testing.WarehouseFixture.Task;
import dev.benchlake.warehouse.Warehouse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;

/**
 * A small warehouse for trends across PostgreSQL majors 11–14, with both kinds of source:
 * sysbench-like runs (whole-run {@code qps} and {@code latency_p99} in {@code step_metrics}) and
 * loadgen-like runs (tasks). Its cases: a steady improvement, a noisy range step, a regression of
 * the writes from 12 to 13, a mixed step with a zero run and a missing version, a step without the
 * base, a negative figure, a figure in an unusable unit, a version with one run, and task runs whose
 * latency grows by a fifth from 11 to 12.
 */
public final class TrendFixture {
  private TrendFixture() {}

  public static Warehouse write(SparkSession spark, String root) {
    List<Run> runs = new ArrayList<>();
    List<Metric> metrics = new ArrayList<>();
    List<Task> tasks = new ArrayList<>();
    Map<String, double[][]> qps = new java.util.LinkedHashMap<>();
    // step -> per major 11, 12, 13, 14: the runs' qps (empty: no run has the step)
    qps.put("oltp_point_select", new double[][] {{10000, 10100, 9950}, {10500, 10400, 10600}, {11500, 11400, 11600}, {11800}});
    qps.put("select_random_ranges", new double[][] {{2000, 2600, 1700}, {2300, 1800, 2500}, {2100, 2200, 2150}, {2180}});
    qps.put("oltp_update_index", new double[][] {{5000, 5050, 4980}, {5100, 5080, 5120}, {4000, 4050, 3980}, {4100}});
    qps.put("oltp_read_write", new double[][] {{800, 810, 790}, {}, {0, 820, 830}, {845}});
    qps.put("oltp_delete", new double[][] {{}, {3000, 3010, 2990}, {3100, 3120, 3080}, {3150}});
    qps.put("bulk_insert", new double[][] {{1200, 1210, 1190}, {1250, 1260, 1240}, {1300, -5, 1310}, {1320}});
    int[] majors = {11, 12, 13, 14};
    for (int m = 0; m < majors.length; m++) {
      int runsOfMajor = majors[m] == 14 ? 1 : 3;
      for (int r = 0; r < runsOfMajor; r++) {
        String id = "sb-" + majors[m] + "-" + (r + 1);
        runs.add(new Run(id, Map.of("db_major", Integer.toString(majors[m]), "workload", "sysbench")));
        for (Map.Entry<String, double[][]> step : qps.entrySet()) {
          double[] values = step.getValue()[m];
          if (r < values.length) {
            boolean percent = step.getKey().equals("bulk_insert") && majors[m] == 12 && r == 2;
            metrics.add(new Metric(id, step.getKey(), "qps", values[r], percent ? "%" : "1/s"));
            if (step.getKey().equals("oltp_point_select")) {
              metrics.add(new Metric(id, step.getKey(), "latency_p99", 0.2 * 10000 / values[r], "ms"));
            }
          }
        }
      }
    }
    SplittableRandom random = new SplittableRandom(11);
    for (int major : new int[] {11, 12, 13}) {
      for (int r = 1; r <= 3; r++) {
        String id = "lg-" + major + "-" + r;
        runs.add(new Run(id, Map.of("db_major", Integer.toString(major), "workload", "loadgen")));
        long clockUs = 1_767_225_600_000_000L + major * 1_000_000_000L + r * 10_000_000L;
        double slower = major == 11 ? 1.0 : 1.2;
        for (int i = 0; i < 150; i++) {
          long latencyNs = Math.round(2_000_000 * slower * Math.exp(0.25 * random.nextGaussian()));
          clockUs += latencyNs / 1000;
          tasks.add(new Task(id, "point-select", latencyNs, true, false, null, null, clockUs - latencyNs / 1000, clockUs));
        }
      }
    }
    // One successful and one failed update: too few for a throughput.
    tasks.add(new Task("lg-13-1", "update-index", 3_000_000L, true, false, null, null, 1L, 2L));
    tasks.add(Task.failed("lg-13-1", "update-index", "40P01", "deadlock detected"));
    return WarehouseFixture.write(spark, root, runs, tasks, metrics);
  }
}
