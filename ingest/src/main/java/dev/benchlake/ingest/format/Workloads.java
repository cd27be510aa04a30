package dev.benchlake.ingest.format;

import dev.benchlake.core.Labels;
import java.util.Map;

/**
 * The runs table's {@code workload} of a third-party tool's runs: the benchmark, the same for
 * every format of one tool (a sysbench output and a mytools tree are both {@code sysbench}), so
 * that {@code --where workload=sysbench} selects them together with loadgen's sysbench-like runs.
 * What ran within it is the step (sysbench's test, pgbench's transaction type). A {@code --label
 * workload=…} (or one read from a path) wins over it.
 */
final class Workloads {
  static final String SYSBENCH = "sysbench";
  static final String PGBENCH = "pgbench";

  private Workloads() {}

  /** The dimensions of a run of {@code workload}. */
  static Map<String, String> of(String workload) {
    return Map.of(Labels.WORKLOAD, workload);
  }
}
