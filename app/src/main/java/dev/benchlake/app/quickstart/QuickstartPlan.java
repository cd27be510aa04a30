package dev.benchlake.app.quickstart;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.Design;
import dev.benchlake.app.study.DuetPairs;
import dev.benchlake.app.study.RoundByRound;
import dev.benchlake.app.study.Study;
import dev.benchlake.app.study.StudyLabels;
import dev.benchlake.app.study.StudyPlan;
import dev.benchlake.app.study.StudyRuns;
import dev.benchlake.app.study.Workload;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.BetweenSteps;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The quickstart as a study: two PostgreSQL majors on select-update and sysbench-like steps, each
 * run on a server of its own (runs that share a server start share its caches and state, so they
 * would replicate less than they seem to). A duet (the default) runs both majors' runs of a
 * workload at once, each side on its own CPU set, with an a/a control; interleaved alternates the
 * majors run after run (round 1: 14 then 17, round 2: 17 then 14, …), so that a slow drift of the
 * machine spreads evenly. It reports the comparison of the last major with the first and the trend
 * of qps by major.
 *
 * @param majors PostgreSQL majors, the first one is the baseline
 * @param rounds runs per major (run until decided: the most comparison rounds)
 * @param workloads what every round runs, in order
 * @param serverSettings every embedded server's settings (a duet's commit without waiting for the shared disk:
 *     {@link dev.benchlake.app.study.duet.SharedDisk})
 * @param looks a duet run until decided (the default): its looks, {@code rounds} their last round; else null
 */
public record QuickstartPlan(List<Integer> majors, int rounds, List<Workload> workloads, Design design, int aaRounds,
    DuetCpus cpus, Map<String, String> serverSettings, SequentialLooks looks) implements StudyPlan<ComparisonReport> {

  public static final List<String> DEFAULT_STEPS = List.of("point-select", "read-only", "update-index", "insert");

  /**
   * The sysbench steps' closed-loop connections: one, as each duet side has one CPU on a 2-core
   * machine; with more, where a query waits for the CPU is the scheduler's choice (docs/designs.md).
   */
  public static final int SYSBENCH_CLIENTS = 1;

  /** The runs' {@code source} label. */
  public static final String SOURCE = "quickstart";
  /** The seed of the data and of the a/a rounds' places: the quickstart is the same every time. */
  public static final long SEED = 20_161_129L;
  /** The run dimension that tells the majors apart. */
  public static final String BY = "db_major";

  /**
   * The quickstart's workloads: select-update, then sysbench-like steps of {@code stepDuration} each, with
   * {@code betweenSteps} on their tables between them.
   */
  public static List<Workload> workloads(Duration stepDuration, Duration warmup, BetweenSteps betweenSteps) {
    return List.of(Workload.SelectUpdate.DEFAULT, new Workload.Sysbench(DEFAULT_STEPS, 1, 10_000, SYSBENCH_CLIENTS,
        stepDuration, null, null, warmup, betweenSteps));
  }

  public QuickstartPlan {
    majors = List.copyOf(majors);
    workloads = List.copyOf(workloads);
    serverSettings = Map.copyOf(serverSettings);
    if (majors.size() < 2 || majors.stream().distinct().count() != majors.size()) {
      throw new IllegalArgumentException("give at least two different PostgreSQL majors, e.g. 14,17");
    }
    if (rounds < 2) {
      throw new IllegalArgumentException("--rounds must be at least 2 (the run is the unit of replication)");
    }
    if (design == Design.SEQUENTIAL) {
      throw new IllegalArgumentException("--design: the quickstart runs interleaved or duet");
    }
    if (design == Design.DUET && majors.size() != 2) {
      throw new IllegalArgumentException("--design duet compares two majors, e.g. --pg-versions 14,17");
    }
    StudyPlan.checkRounds("quickstart", design, rounds, aaRounds, SEED, looks);
  }

  @Override
  public String name() {
    return "quickstart";
  }

  @Override
  public String idPrefix() {
    return null;
  }

  @Override
  public long seed() {
    return SEED;
  }

  private int base() {
    return majors.get(0);
  }

  private int candidate() {
    return majors.get(majors.size() - 1);
  }

  /** The selector of one major's runs (a duet's: but its a/a control's). */
  public String selectorOf(int major) {
    return BY + "=" + major + (design == Design.DUET ? "," + StudyLabels.NOT_CONTROL : "");
  }

  /**
   * The output folder, and each workload's loadgen options on each major ({@link Loadgen#validate}:
   * its embedded binaries among them; a major without them ran a whole a/a round before it failed).
   */
  @Override
  public void validate(Path out) {
    new QuickstartLayout(out).check();
    for (int major : majors) {
      for (Workload workload : workloads) {
        Loadgen.validate(config(workload, major, out.resolve("runs").resolve("validate"), Map.of(), SEED));
      }
    }
  }

  @Override
  public void prepare(Path out, java.io.PrintWriter log) throws IOException {
    new QuickstartLayout(out).prepare().ifPresent(kept -> {
      log.println("quickstart: the earlier quickstart's folder is kept as " + kept);
      log.flush();
    });
  }

  @Override
  public List<StudyRuns.Measurement> unpaired(Path runs, String studyId) {
    List<StudyRuns.Measurement> plan = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      List<Integer> majorsThisRound = new ArrayList<>(majors);
      if (round % 2 == 0) {
        java.util.Collections.reverse(majorsThisRound);
      }
      for (int major : majorsThisRound) {
        for (Workload workload : workloads) {
          plan.add(new StudyRuns.Alone(String.format(Locale.ROOT, "PostgreSQL %d, run %d of %d: %s", major, round,
              rounds, workload.id()), config(workload, major, runs.resolve("pg" + major + "-run" + round + "-"
              + workload.id()), StudyLabels.of(null, SOURCE, design, round, null, false, null), SEED + major)));
        }
      }
    }
    return plan;
  }

  /** A duet round: one pair per workload, both majors at once (the baseline on both sides in an a/a round). */
  @Override
  public Function<DuetSchedule.Round, List<StudyRuns.Measurement>> byRound(Path runs, String studyId) {
    return r -> {
      List<StudyRuns.Measurement> pairs = new ArrayList<>();
      int other = r.aa() ? base() : majors.get(1);
      for (Workload workload : workloads) {
        String name = "r" + r.round() + (r.aa() ? "-aa" : "") + "-" + workload.id();
        // Both sides load the same data; a new draw each round. The pair label names the workload.
        pairs.add(DuetPairs.pair(DuetPairs.title(r) + ", " + workload.id() + ": PostgreSQL " + base() + " | " + other,
            cpus, r, (side, set) -> {
              int major = side.equals("a") ? base() : other;
              return config(workload, major, runs.resolve(name + "-pg" + major + "-" + side),
                  DuetPairs.labels(null, SOURCE, r, side, set, workload.id()), SEED + r.round());
            }));
      }
      return pairs;
    };
  }

  private LoadgenConfig config(Workload workload, int major, Path dir, Map<String, String> labels, long seed) {
    return workload.run(new LoadgenConfig.Embedded(major, serverSettings, null), seed, dir, labels);
  }

  @Override
  public String aaInWords() {
    return "PostgreSQL " + base() + " against itself over " + aaRounds + " rounds";
  }

  @Override
  public RoundByRound.Decide decide(String studyId) {
    return RoundByRound.Decide.byComparing((w, at) -> ChainStages.compare(w, selectorOf(base()),
        selectorOf(candidate()), THRESHOLD, at));
  }

  /** The comparison of the last major with the first, then the trend of qps of every major relative to the first. */
  @Override
  public ComparisonReport report(Study.Finished finished) {
    finished.status().accept("comparing PostgreSQL " + candidate() + " with " + base());
    ComparisonReport comparison = finished.compare(selectorOf(base()), selectorOf(candidate()), THRESHOLD);
    finished.status().accept("trend of qps by PostgreSQL major, relative to " + base());
    // The trend's calls at the comparison's α (the look's, in a study run until decided), with its
    // control and stop, and a line saying why its figure is not the comparison's (issue 49).
    ChainStages.writeTrend(finished.warehouse(), BY, Integer.toString(base()), "qps",
        design == Design.DUET ? StudyLabels.NOT_CONTROL : null, finished.settings(),
        r -> finished.noted(r).withComparison(besideTheComparison(r.design())), finished.out().resolve("trend"));
    return comparison;
  }

  /**
   * Why the trend's figures are not the comparison's, whose calls are the study's: the comparison
   * follows each step's median latency, and paired rounds by Huber's M-estimate; the trend follows
   * qps, and paired rounds by least squares (its groups are geometric means of those relatives).
   */
  static String besideTheComparison(String trendDesign) {
    boolean paired = !Pairing.UNPAIRED_DESIGN.equals(trendDesign);
    return "This trend follows qps (higher is better)" + (paired ? ", the rounds paired and fitted by least squares"
        : ", the runs unpaired") + "; the comparison (compare/report.html) calls the same steps on median latency (lower"
        + " is better)" + (paired ? " by Huber's M-estimate" : "") + ": another figure, so its numbers and intervals"
        + " differ from these. The study's calls are the comparison's.";
  }
}
