package dev.benchlake.app.quickstart;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the quickstart runs: for each PostgreSQL major, {@code runs} repetitions of two workloads,
 * interleaved across majors (round 1: 14 then 17, round 2: 17 then 14, …) so that a slow drift of
 * the machine spreads evenly over the versions instead of favouring one.
 *
 * <p>Sized for a laptop or a 2-core CI box: a few minutes in all, with 5 vs 5 runs. At the
 * quickstart's run-to-run noise (between-run SD of the log per-run medians 0.11–0.15) that many runs
 * decide only large changes; compare says so per step, with θ's interval and the runs needed.
 *
 * @param majors PostgreSQL majors, the first one is the baseline
 * @param runs repetitions per major
 * @param sysbenchSteps sysbench-like steps, each with its own warm-up
 * @param stepDuration measured time of each sysbench-like step
 * @param warmup warm-up of each sysbench-like step
 * @param clients closed-loop connections of the sysbench-like steps
 * @param burst select-update: tasks submitted at once, as in the 2016 study
 * @param pool select-update: connection pool size
 * @param selectUpdateScale select-update: rows per thread = 100000 × scale
 */
public record QuickstartPlan(List<Integer> majors, int runs, List<String> sysbenchSteps, Duration stepDuration,
    Duration warmup, int clients, int burst, int pool, double selectUpdateScale) {

  public static final List<String> DEFAULT_STEPS = List.of("point-select", "read-only", "update-index", "insert");

  public QuickstartPlan {
    majors = List.copyOf(majors);
    sysbenchSteps = List.copyOf(sysbenchSteps);
    if (majors.size() < 2 || majors.stream().distinct().count() != majors.size()) {
      throw new IllegalArgumentException("give at least two different PostgreSQL majors, e.g. 14,17");
    }
    if (runs < 2) {
      throw new IllegalArgumentException("--runs must be at least 2 (the run is the unit of replication)");
    }
  }

  /** One loadgen run of the plan. */
  public record Run(int round, int major, String workload) {
    /** The run directory's name, e.g. {@code pg17-run2-sysbench}. */
    public String dirName() {
      return "pg" + major + "-run" + round + "-" + workload;
    }
  }

  /** Every run, in the order to run them. */
  public List<Run> schedule() {
    List<Run> order = new ArrayList<>();
    for (int round = 1; round <= runs; round++) {
      List<Integer> majorsThisRound = new ArrayList<>(majors);
      if (round % 2 == 0) {
        java.util.Collections.reverse(majorsThisRound);
      }
      for (int major : majorsThisRound) {
        order.add(new Run(round, major, "select-update"));
        order.add(new Run(round, major, "sysbench"));
      }
    }
    return order;
  }

  /** The run dimension that tells the majors apart. */
  public static final String BY = "db_major";

  /** The selector of one major's runs. */
  public static String selector(int major) {
    return BY + "=" + major;
  }
}
