package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetPair;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.core.CpuList;
import dev.benchlake.loadgen.LoadgenConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;

/**
 * What {@code study versions} runs, by {@code design}:
 *
 * <ul>
 *   <li>{@code interleaved} (the default): every major once per round, {@code repeats} rounds, the
 *       order of each round shuffled by {@code seed} (recorded), so that a drift of the machine over
 *       the study spreads over the versions instead of favouring the ones that run first;
 *   <li>{@code sequential}: all runs of the first major, then all of the next;
 *   <li>{@code duet}: in each of {@code repeats} rounds, every other major against the first one
 *       (the trend's base), both at the same moment on CPU sets of their own ({@link DuetCpus}),
 *       the pairs of a round in an order the seed shuffles; plus {@code aaRounds} of the a/a
 *       control, the base against itself.
 * </ul>
 *
 * @param majors PostgreSQL majors; the first is the trend's base
 * @param repeats rounds (runs per major; a duet's comparison rounds)
 * @param seed the shuffles' seed, and the data's (the same for every major of a round)
 * @param steps loadgen's {@code --steps} (e.g. {@code mytools})
 * @param tables sbtest tables
 * @param tableSize rows per table
 * @param clients closed-loop connections
 * @param readDuration measured time of each read step
 * @param writeDuration measured time of each write step
 * @param warmup warm-up of each step
 * @param settings {@code --pg-setting}s, applied to every embedded server
 * @param pgDir where the embedded clusters go (null: the temp directory)
 * @param design how the majors are measured
 * @param aaRounds a duet's a/a rounds
 * @param cpus a duet's CPU sets, else null
 * @param looks a duet run until decided ({@code --until-decided}): its looks, whose last round is
 *     {@code repeats}; else null
 */
public record VersionStudyPlan(List<Integer> majors, int repeats, long seed, List<String> steps, int tables,
    int tableSize, int clients, Duration readDuration, Duration writeDuration, Duration warmup,
    Map<String, String> settings, Path pgDir, Design design, int aaRounds, DuetCpus cpus,
    dev.benchlake.analysis.stats.SequentialLooks looks) {

  /** The command's name in the runs' {@code source} label. */
  public static final String SOURCE = "study-versions";

  public VersionStudyPlan {
    majors = List.copyOf(majors);
    steps = List.copyOf(steps);
    settings = Map.copyOf(settings);
    if (majors.size() < 2 || majors.stream().distinct().count() != majors.size()) {
      throw new IllegalArgumentException("--pg: give at least two different PostgreSQL majors, e.g. 11,16");
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats must be at least 1, not " + repeats);
    }
    if (looks != null && (design != Design.DUET || looks.maxRounds() != repeats)) {
      throw new IllegalArgumentException("a study run until decided is a duet of as many rounds as its looks");
    }
    if (design == Design.DUET) {
      duetSchedule(repeats, aaRounds, seed, looks); // checks the a/a rounds
    }
  }

  /** A plan without looks: a fixed number of rounds. */
  public VersionStudyPlan(List<Integer> majors, int repeats, long seed, List<String> steps, int tables, int tableSize,
      int clients, Duration readDuration, Duration writeDuration, Duration warmup, Map<String, String> settings,
      Path pgDir, Design design, int aaRounds, DuetCpus cpus) {
    this(majors, repeats, seed, steps, tables, tableSize, clients, readDuration, writeDuration, warmup, settings, pgDir,
        design, aaRounds, cpus, null);
  }

  /** A duet's rounds in the order they run (a study run until decided: its a/a rounds before the first look). */
  public DuetSchedule duetSchedule() {
    return duetSchedule(repeats, aaRounds, seed, looks);
  }

  /** From the components: the compact constructor checks with it before the fields are assigned. */
  private static DuetSchedule duetSchedule(int repeats, int aaRounds, long seed,
      dev.benchlake.analysis.stats.SequentialLooks looks) {
    return new DuetSchedule(repeats, aaRounds, seed, looks == null ? 0 : looks.firstLook());
  }

  /** An interleaved study without settings: the plan before issue 26. */
  public VersionStudyPlan(List<Integer> majors, int repeats, long seed, List<String> steps, int tables, int tableSize,
      int clients, Duration readDuration, Duration writeDuration, Duration warmup) {
    this(majors, repeats, seed, steps, tables, tableSize, clients, readDuration, writeDuration, warmup, Map.of(), null,
        Design.INTERLEAVED, DuetSchedule.MIN_AA_ROUNDS, null, null);
  }

  /** One loadgen run of a sequential or interleaved study: round r (from 1), its position in the round (from 1), the major. */
  public record Run(int round, int position, int major) {
    /** The run directory's name, e.g. {@code r2-pg14}. */
    public String dirName() {
      return "r" + round + "-pg" + major;
    }
  }

  /** Every run of a sequential or interleaved study, in the order to run them (a duet: {@link #measurements}). */
  public List<Run> schedule() {
    List<Run> order = new ArrayList<>();
    if (design == Design.SEQUENTIAL) {
      for (int i = 0; i < majors.size(); i++) {
        for (int round = 1; round <= repeats; round++) {
          order.add(new Run(round, i + 1, majors.get(i)));
        }
      }
      return order;
    }
    Random random = new Random(seed);
    for (int round = 1; round <= repeats; round++) {
      List<Integer> thisRound = new ArrayList<>(majors);
      Collections.shuffle(thisRound, random);
      for (int i = 0; i < thisRound.size(); i++) {
        order.add(new Run(round, i + 1, thisRound.get(i)));
      }
    }
    return order;
  }

  /** Every measurement, in the order they run; run folders under {@code out/runs}. */
  public List<StudyRuns.Measurement> measurements(Path out, String studyId) {
    List<StudyRuns.Measurement> plan = new ArrayList<>();
    if (design != Design.DUET) {
      for (Run run : schedule()) {
        SortedMap<String, String> labels = StudyLabels.of(studyId, SOURCE, design, run.round(), null, false, null);
        labels.put("position", Integer.toString(run.position()));
        plan.add(new StudyRuns.Alone("round " + run.round() + ", PostgreSQL " + run.major(),
            config(run.major(), run.round(), out.resolve("runs").resolve(run.dirName()), labels)));
      }
      return plan;
    }
    Random random = new Random(seed);
    for (DuetSchedule.Round r : duetSchedule().order()) {
      plan.addAll(duetRound(r, out, studyId, random));
    }
    return plan;
  }

  /**
   * A duet round's pairs, every other major against the base (the base against itself in an a/a
   * round), in the order {@code random} shuffles them.
   */
  List<StudyRuns.Measurement> duetRound(DuetSchedule.Round r, Path out, String studyId, Random random) {
    List<StudyRuns.Measurement> plan = new ArrayList<>();
    int base = majors.get(0);
    List<Integer> others = new ArrayList<>(r.aa() ? List.of(base) : majors.subList(1, majors.size()));
    Collections.shuffle(others, random);
    for (int other : others) {
      CpuList setA = cpus.sideA(r.ofKind());
      CpuList setB = cpus.sideB(r.ofKind());
      String pair = base + "v" + other;
      String name = "r" + r.round() + (r.aa() ? "-aa" : "-" + pair);
      plan.add(new StudyRuns.Pair(String.format(java.util.Locale.ROOT, "round %d%s: PostgreSQL %d | %d", r.round(),
          r.aa() ? " (a/a control)" : "", base, other),
          new SideRun("a", config(base, r.round(), out.resolve("runs").resolve(name + "-a"),
              pairLabels(studyId, r, "a", setA, pair)), setA),
          new SideRun("b", config(other, r.round(), out.resolve("runs").resolve(name + "-b"),
              pairLabels(studyId, r, "b", setB, pair)), setB), cpus.swap()));
    }
    return plan;
  }

  private SortedMap<String, String> pairLabels(String studyId, DuetSchedule.Round r, String side, CpuList set,
      String pair) {
    SortedMap<String, String> labels = StudyLabels.of(studyId, SOURCE, design, r.round(), side, r.aa(), set);
    labels.put(StudyLabels.PAIR, pair);
    return labels;
  }

  /** One run's config (also what validation checks before anything runs). */
  LoadgenConfig config(int major, int round, Path dir, Map<String, String> labels) {
    return LoadgenConfig.builder()
        .target(new LoadgenConfig.Embedded(major, settings, pgDir))
        .workload("sysbench")
        .steps(steps)
        .tables(tables)
        .tableSize(tableSize)
        .mode(LoadgenConfig.Mode.closed(clients))
        .readDuration(readDuration)
        .writeDuration(writeDuration)
        .warmup(warmup)
        // The same data for every major of a round; a new draw each round.
        .randomSeed(seed + round)
        .outDir(dir)
        .labels(labels)
        .build();
  }

  /** The trend's base: the first major given. */
  public String base() {
    return Integer.toString(majors.get(0));
  }
}
