package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetPair;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.core.CpuList;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.BetweenSteps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What {@code study ab} runs: two sides (two majors, two sets of settings of one major, or two
 * servers by URL) on the same sysbench steps, {@code rounds} times each, measured by
 * {@code design}; a duet adds {@code aaRounds} of its a/a control. In every round both sides load
 * the same data (seed + round).
 *
 * @param a the baseline
 * @param b the candidate
 * @param aaSecond the a/a control's side b: the baseline again (for a server by URL: another
 *     database of it, {@code --aa-jdbc-url}, since both sides load their tables at once)
 * @param design how the sides are measured
 * @param rounds runs per side
 * @param aaRounds a duet's a/a rounds
 * @param seed the order, the a/a rounds' places and the data
 * @param workload the steps and how long each runs
 * @param cpus a duet's CPU sets, else null
 * @param looks a duet run until decided: its looks ({@code rounds} is then their last round); else null
 */
public record AbStudyPlan(Side a, Side b, Side aaSecond, Design design, int rounds, int aaRounds, long seed,
    Workload workload, DuetCpus cpus, dev.benchlake.analysis.stats.SequentialLooks looks) {

  /** The command's name in the runs' {@code source} label. */
  public static final String SOURCE = "study-ab";

  public AbStudyPlan {
    if (rounds < 2) {
      throw new IllegalArgumentException("--rounds must be at least 2 (the run is the unit of replication), not "
          + rounds);
    }
    if (looks != null && (design != Design.DUET || looks.maxRounds() != rounds)) {
      throw new IllegalArgumentException("a study run until decided is a duet of at most its looks' last round");
    }
    if (design == Design.DUET) {
      new DuetSchedule(rounds, aaRounds, seed, looks == null ? 0 : looks.firstLook()); // checks the a/a rounds
    }
  }

  /** A duet's rounds in the order they run. */
  public DuetSchedule schedule() {
    return new DuetSchedule(rounds, aaRounds, seed, looks == null ? 0 : looks.firstLook());
  }

  /** A side: where its runs go. */
  public record Side(LoadgenConfig.Target target) {
    /** For the log and study.json: {@code PostgreSQL 14 (shared_buffers=128kB)} or the URL, its secrets redacted. */
    public String describe() {
      if (target instanceof LoadgenConfig.Embedded e) {
        return "PostgreSQL " + e.major() + (e.settings().isEmpty() ? "" : " " + new java.util.TreeMap<>(e.settings()));
      }
      // Printed and written to study.json: a password in the URL never is.
      return dev.benchlake.core.redaction.Redaction.scrub(((LoadgenConfig.External) target).jdbcUrl());
    }
  }

  /**
   * The steps of every run.
   *
   * @param duration measured time of each step, unless both kinds have their own
   */
  public record Workload(List<String> steps, int tables, int tableSize, int clients, Duration duration,
      Duration readDuration, Duration writeDuration, Duration warmup, BetweenSteps betweenSteps) {
    public Workload {
      steps = List.copyOf(steps);
      betweenSteps = betweenSteps == null ? BetweenSteps.NONE : betweenSteps;
    }

    /** Nothing between steps: maintenance left to each server. */
    public Workload(List<String> steps, int tables, int tableSize, int clients, Duration duration,
        Duration readDuration, Duration writeDuration, Duration warmup) {
      this(steps, tables, tableSize, clients, duration, readDuration, writeDuration, warmup, BetweenSteps.NONE);
    }
  }

  /** Every measurement, in the order they run; run folders under {@code out/runs}. */
  public List<StudyRuns.Measurement> measurements(Path out, String studyId) {
    List<StudyRuns.Measurement> plan = new ArrayList<>();
    switch (design) {
      case DUET -> {
        for (DuetSchedule.Round r : schedule().order()) {
          plan.add(measurementOf(r, out, studyId));
        }
      }
      case INTERLEAVED -> {
        Random random = new Random(seed);
        for (int r = 1; r <= rounds; r++) {
          List<String> order = new ArrayList<>(List.of("a", "b"));
          Collections.shuffle(order, random);
          for (String side : order) {
            plan.add(alone(side, r, out, studyId));
          }
        }
      }
      case SEQUENTIAL -> {
        for (String side : List.of("a", "b")) {
          for (int r = 1; r <= rounds; r++) {
            plan.add(alone(side, r, out, studyId));
          }
        }
      }
    }
    return plan;
  }

  /** A duet round's pair. */
  public StudyRuns.Pair measurementOf(DuetSchedule.Round r, Path out, String studyId) {
    CpuList setA = cpus.sideA(r.ofKind());
    CpuList setB = cpus.sideB(r.ofKind());
    Side second = r.aa() ? aaSecond : b;
    String name = "r" + r.round() + (r.aa() ? "-aa" : "");
    return new StudyRuns.Pair(String.format(java.util.Locale.ROOT, "round %d%s: a %s | b %s", r.round(),
        r.aa() ? " (a/a control)" : "", a.describe(), second.describe()),
        new SideRun("a", config(a, out, studyId, r.round(), name + "-a", "a", r.aa(), setA), setA),
        new SideRun("b", config(second, out, studyId, r.round(), name + "-b", "b", r.aa(), setB), setB),
        cpus.swap());
  }

  private StudyRuns.Alone alone(String side, int round, Path out, String studyId) {
    Side s = side.equals("a") ? a : b;
    return new StudyRuns.Alone("round " + round + ", side " + side + ": " + s.describe(),
        config(s, out, studyId, round, "r" + round + "-" + side, side, false, null));
  }

  /** The config of one run (also what validation checks before anything runs). */
  LoadgenConfig config(Side side, Path out, String studyId, int round, String dirName, String sideName, boolean aa,
      CpuList set) {
    Map<String, String> labels = StudyLabels.of(studyId, SOURCE, design, round, sideName, aa, set);
    return LoadgenConfig.builder()
        .target(side.target())
        .workload("sysbench")
        .steps(workload.steps())
        .tables(workload.tables())
        .tableSize(workload.tableSize())
        .mode(LoadgenConfig.Mode.closed(workload.clients()))
        .duration(workload.duration())
        .readDuration(workload.readDuration())
        .writeDuration(workload.writeDuration())
        .warmup(workload.warmup())
        // Outside the measured windows: each side's maintenance is done before both start the next step.
        .betweenSteps(workload.betweenSteps())
        // Both sides of a round load the same data; a new draw each round.
        .randomSeed(seed + round)
        .outDir(out.resolve("runs").resolve(dirName))
        .labels(labels)
        .build();
  }
}
