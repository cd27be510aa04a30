package dev.benchlake.app.quickstart;

import dev.benchlake.app.study.Design;
import dev.benchlake.app.study.StudyLabels;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
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
 * @param selectUpdate how select-update runs ({@link SelectUpdate#DEFAULT})
 * @param design {@code interleaved} (as above) or {@code duet}: in each of {@code runs} rounds
 *     both majors at the same moment, each on a CPU set of its own ({@link DuetCpus}), one pair per
 *     workload, plus {@code aaRounds} of the a/a control (the baseline on both sides)
 * @param aaRounds a duet's a/a rounds
 * @param cpus a duet's CPU sets, else null
 * @param looks a duet run until decided (the default): its looks, {@code runs} their last round;
 *     else null
 */
public record QuickstartPlan(List<Integer> majors, int runs, List<String> sysbenchSteps, Duration stepDuration,
    Duration warmup, int clients, SelectUpdate selectUpdate, Design design, int aaRounds, DuetCpus cpus,
    dev.benchlake.analysis.stats.SequentialLooks looks) {

  /** The workloads of every round, in the order they run. */
  public static final List<String> WORKLOADS = List.of("select-update", "sysbench");

  public static final List<String> DEFAULT_STEPS = List.of("point-select", "read-only", "update-index", "insert");

  /**
   * The sysbench steps' closed-loop connections: one, as each duet side has one CPU on a 2-core
   * machine. With 4, the client threads and their backends queue for that CPU, and where the wait
   * falls (before a query is sent, unmeasured, or after, measured) is the scheduler's choice: a
   * side's point-select median flipped between 0.06-0.08 and 0.17-0.20 ms at the same throughput,
   * from one round to the next, and left the step inconclusive in 7 of 11 quickstarts of
   * 2026-12-05. With one client each query is served as it comes: 0.033 ms, its per-round SD 0.006
   * (docs/designs.md). study versions' default too.
   */
  public static final int SYSBENCH_CLIENTS = 1;

  /**
   * How select-update runs: the 2016 study's workload, shaped for a duet side's one CPU.
   *
   * @param burst tasks submitted at once
   * @param pool connections
   * @param scale rows per thread = 100000 × scale
   * @param warmup the warm-up, long enough for one burst and not two
   * @param measuredBursts measured bursts per run, back to back after the warm-up: the run's figure
   *     is their pooled median
   */
  public record SelectUpdate(int burst, int pool, double scale, Duration warmup, int measuredBursts) {
    /**
     * 1200 tasks rather than 400 since the sides' JVMs are kept warm: the per-round spread came
     * out about half. 4 connections, not the 2016 study's 20: 20 backends and 20 client threads on
     * a side's one CPU made the burst a scheduling lottery (a side stalled for 100–400 ms at moments
     * of its own; past round 4 the per-round SD of its log ratio was 0.08–0.18 with 20 and
     * 0.033–0.044 with 4). Scale 0.02: 2,000 rows per thread, 20,000 in all, loaded in well under a
     * second. A warm-up of 1 s, one burst (a burst drains in 0.6–0.8 s), then 2 measured bursts: a
     * run's first burst, on a server started moments before, carried most of select-update's
     * outlying rounds (in a quickstart of three measured bursts per run, the per-round SD of the log
     * ratio of the median was 0.117 over the first bursts alone, 0.036 over the next two pooled).
     * Measured on 2026-12-05: docs/designs.md.
     */
    public static final SelectUpdate DEFAULT = new SelectUpdate(1200, 4, 0.02, Duration.ofSeconds(1), 2);

    /** The tasks a run measures. */
    public long measuredTasks() {
      return (long) burst * measuredBursts;
    }
  }

  public QuickstartPlan {
    majors = List.copyOf(majors);
    sysbenchSteps = List.copyOf(sysbenchSteps);
    if (majors.size() < 2 || majors.stream().distinct().count() != majors.size()) {
      throw new IllegalArgumentException("give at least two different PostgreSQL majors, e.g. 14,17");
    }
    if (runs < 2) {
      throw new IllegalArgumentException("--runs must be at least 2 (the run is the unit of replication)");
    }
    if (design == Design.SEQUENTIAL) {
      throw new IllegalArgumentException("--design: the quickstart runs interleaved or duet");
    }
    if (design == Design.DUET) {
      if (majors.size() != 2) {
        throw new IllegalArgumentException("--design duet compares two majors, e.g. --pg-versions 14,17");
      }
      new DuetSchedule(runs, aaRounds, 0, looks == null ? 0 : looks.firstLook()); // checks the a/a rounds
    }
    if (looks != null && (design != Design.DUET || looks.maxRounds() != runs)) {
      throw new IllegalArgumentException("a quickstart run until decided is a duet of at most its looks' last round");
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
        for (String workload : WORKLOADS) {
          order.add(new Run(round, major, workload));
        }
      }
    }
    return order;
  }

  /** The run dimension that tells the majors apart. */
  public static final String BY = "db_major";

  /** The selector of one major's runs (a duet's: but its a/a control's). */
  public String selectorOf(int major) {
    return BY + "=" + major + (design == Design.DUET ? "," + StudyLabels.NOT_CONTROL : "");
  }

  /** Which of the runs the trend reads: all, or a duet's but its a/a control's. */
  public String trendWhere() {
    return design == Design.DUET ? StudyLabels.NOT_CONTROL : null;
  }

  /** A duet's rounds in the order they run ({@link DuetSchedule}; fixed seed: the quickstart is the same every time). */
  public DuetSchedule duetSchedule() {
    return new DuetSchedule(runs, aaRounds, SEED, looks == null ? 0 : looks.firstLook());
  }

  /** The seed of the data and of the a/a rounds' places. */
  public static final long SEED = 20_161_129L;
}
