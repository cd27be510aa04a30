package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.EmbeddedBinaries;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.function.Function;

/**
 * {@code study versions}: every major on fresh embedded servers (loadgen starts and stops one per
 * run: runs that share a server share its caches and state), reported as the trend of qps by
 * {@code db_major} relative to the first major, over this study's runs only. By {@code design}:
 *
 * <ul>
 *   <li>{@code interleaved} (the default): every major once per round, in an order shuffled by
 *       {@code seed} (recorded), so that a drift of the machine spreads over the versions;
 *   <li>{@code sequential}: all runs of the first major, then all of the next;
 *   <li>{@code duet}: in each round every other major against the first, both at the same moment
 *       on CPU sets of their own, the pairs of a round in an order the seed shuffles; plus the a/a
 *       control, the base against itself, which leads the trend's warnings when not equivalent.
 * </ul>
 *
 * @param majors PostgreSQL majors; the first is the trend's base
 * @param rounds runs per major (a duet's comparison rounds)
 * @param seed the shuffles' seed, and the data's (the same for every major of a round)
 * @param workload the steps, read and write steps each with its time
 * @param settings {@code --pg-setting}s, applied to every embedded server; a name prefixed with a major
 *     and a colon ({@code 17:enable_indexscan}) only to that major's ({@link #settingsOf})
 * @param pgDir where the embedded clusters go (null: the temp directory)
 * @param looks a duet run until decided: its looks, whose last round is {@code rounds}; else null
 */
public record VersionStudyPlan(List<Integer> majors, int rounds, long seed, Workload.Sysbench workload,
    Map<String, String> settings, Path pgDir, Design design, int aaRounds, DuetCpus cpus, SequentialLooks looks)
    implements StudyPlan<TrendReport> {

  /** The command's name in the runs' {@code source} label. */
  public static final String SOURCE = "study-versions";
  private static final String BY = "db_major";

  public VersionStudyPlan {
    majors = List.copyOf(majors);
    workload = workload.byKind();
    settings = Map.copyOf(settings);
    for (String name : settings.keySet()) {
      Integer only = majorOf(name);
      if (name.contains(":") && (only == null || !majors.contains(only))) {
        throw new IllegalArgumentException("--pg-setting " + name + "=" + settings.get(name) + ": '"
            + name.substring(0, name.indexOf(':')) + "' is not one of the majors of --pg ("
            + String.join(",", majors.stream().map(String::valueOf).toList()) + "); MAJOR:NAME=VALUE sets NAME on "
            + "that major's servers only");
      }
    }
    if (majors.size() < 2 || majors.stream().distinct().count() != majors.size()) {
      throw new IllegalArgumentException("--pg: give at least two different PostgreSQL majors, e.g. 11,16");
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1, not " + rounds);
    }
    StudyPlan.checkRounds("study", design, rounds, aaRounds, seed, looks);
  }

  @Override
  public String idPrefix() {
    return "versions";
  }

  /** One loadgen run of a sequential or interleaved study: round r (from 1), its position in the round (from 1), the major. */
  public record Run(int round, int position, int major) {
    /** The run directory's name, e.g. {@code r2-pg14}. */
    public String dirName() {
      return "r" + round + "-pg" + major;
    }
  }

  /** Every run of a sequential or interleaved study, in the order to run them. */
  public List<Run> runOrder() {
    return RunOrder.of(majors, rounds, seed, design).stream().map(s -> new Run(s.round(), s.position(), s.side()))
        .toList();
  }

  /** The majors' binaries, the loadgen options (the first run's config), the output folder. */
  @Override
  public void validate(Path out) {
    List<Integer> available = EmbeddedBinaries.discover().majors();
    for (int major : majors) {
      if (!available.contains(major)) {
        throw new BadInputException("--pg " + major + ": no embedded PostgreSQL " + major + " for this platform; "
            + "available: " + String.join(", ", available.stream().map(String::valueOf).toList()));
      }
    }
    StudyFolders.requireNewOrEmpty(out);
    // Every major's: its settings may differ (MAJOR:NAME=VALUE).
    for (int major : majors) {
      Loadgen.validate(config(major, 1, out.resolve("runs").resolve("r1"), Map.of()));
    }
  }

  /** The {@code --pg-setting}s on a server of each major: PostgreSQL refuses a wrong name or value (seconds a major). */
  @Override
  public void checkSettings(PrintWriter log) {
    StudySettings.check(majors.stream().<LoadgenConfig.Target>map(m -> new LoadgenConfig.Embedded(m, settingsOf(m),
        pgDir))
        .toList(), workload.clients(), log);
  }

  @Override
  public List<StudyRuns.Measurement> unpaired(Path runs, String studyId) {
    return runOrder().stream().<StudyRuns.Measurement>map(run -> {
      SortedMap<String, String> labels = StudyLabels.of(studyId, SOURCE, design, run.round(), null, false, null);
      labels.put("position", Integer.toString(run.position()));
      return new StudyRuns.Alone("round " + run.round() + ", PostgreSQL " + run.major(),
          config(run.major(), run.round(), runs.resolve(run.dirName()), labels));
    }).toList();
  }

  /**
   * A duet round's pairs in the order they run ({@link #pairOrder}), every other major against the
   * base (the base against itself in an a/a round).
   */
  @Override
  public Function<DuetSchedule.Round, List<StudyRuns.Measurement>> byRound(Path runs, String studyId) {
    Map<Integer, List<Integer>> order = pairOrder();
    return r -> {
      List<StudyRuns.Measurement> plan = new ArrayList<>();
      int base = majors.get(0);
      for (int other : order.get(r.round())) {
        String pair = pairName(other);
        String name = "r" + r.round() + (r.aa() ? "-aa" : "-" + pair) + "-";
        plan.add(DuetPairs.pair(DuetPairs.title(r) + ": PostgreSQL " + base + " | " + other, cpus, r,
            (side, set) -> config(side.equals("a") ? base : other, r.round(), runs.resolve(name + side),
                DuetPairs.labels(studyId, SOURCE, r, side, set, pair))));
      }
      return plan;
    };
  }

  /**
   * A duet's side b in each round, by round number, in the order the pairs run (side a is always
   * the base; an a/a round's one pair is the base against itself): one draw of {@link #seed} shuffles
   * the pairs round after round in the schedule's order, so the machine's drift within a round
   * spreads over the majors. What {@link #byRound} runs and study.json records ({@code duet_pairs}).
   */
  Map<Integer, List<Integer>> pairOrder() {
    Random random = new Random(seed);
    Map<Integer, List<Integer>> order = new java.util.LinkedHashMap<>();
    int base = majors.get(0);
    for (DuetSchedule.Round r : schedule().order()) {
      List<Integer> others = new ArrayList<>(r.aa() ? List.of(base) : majors.subList(1, majors.size()));
      Collections.shuffle(others, random);
      order.put(r.round(), List.copyOf(others));
    }
    return order;
  }

  /** A pair's name, its runs' {@code pair} label: {@code 11v14}. */
  private String pairName(int other) {
    return majors.get(0) + "v" + other;
  }

  /** One run's config (also what validation checks before anything runs). */
  LoadgenConfig config(int major, int round, Path dir, Map<String, String> labels) {
    // The same data for every major of a round; a new draw each round.
    return workload.run(new LoadgenConfig.Embedded(major, settingsOf(major), pgDir), seed + round, dir, labels);
  }

  /**
   * The settings of a server of {@code major}: every {@code --pg-setting} without a major, then
   * those given for {@code major} alone ({@code 17:enable_indexscan=off}: a handicap of known size on
   * one side, or a setting one major names otherwise), which win.
   */
  Map<String, String> settingsOf(int major) {
    Map<String, String> of = new java.util.LinkedHashMap<>();
    settings.forEach((name, value) -> {
      if (!name.contains(":")) {
        of.put(name, value);
      }
    });
    settings.forEach((name, value) -> {
      if (Integer.valueOf(major).equals(majorOf(name))) {
        of.put(name.substring(name.indexOf(':') + 1), value);
      }
    });
    return of;
  }

  /** The major of a setting's {@code MAJOR:} prefix; null without one, or one that is not a number. */
  private static Integer majorOf(String name) {
    int colon = name.indexOf(':');
    if (colon < 0) {
      return null;
    }
    try {
      return Integer.valueOf(name.substring(0, colon));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The trend's base: the first major given. */
  public String base() {
    return Integer.toString(majors.get(0));
  }

  @Override
  public void head(ObjectNode root) {
    root.put("seed", seed);
    ArrayNode majorsNode = root.putArray("majors");
    majors.forEach(majorsNode::add);
    // Its former name, which readers of earlier study files know.
    root.put("repeats", rounds);
    if (design == Design.DUET) {
      duetPairs(root.putObject("duet_pairs"));
    }
  }

  /**
   * study.json's record of how a duet shares its rounds between the majors: every round runs every
   * other major against the base, one pair after the other, in the order drawn (per round, the pairs
   * as they run); and what the comparisons between neighbours rest on (no pairs of their own).
   */
  private void duetPairs(ObjectNode node) {
    node.put("base", majors.get(0));
    node.put("seed", seed);
    node.put("rule", "every comparison round runs every other major against the base, each pair both sides at the same"
        + " moment on the round's CPU sets, the pairs one after the other in an order a draw from the seed shuffles"
        + " round after round; an a/a round runs the base against itself; a round of a study run until decided runs"
        + " the steps still open in each of its pairs");
    node.put("neighbours", NEIGHBOURS);
    ArrayNode rounds = node.putArray("by_round");
    List<DuetSchedule.Round> schedule = schedule().order();
    pairOrder().forEach((round, others) -> {
      ObjectNode r = rounds.addObject();
      r.put("round", round);
      if (schedule.get(round - 1).aa()) {
        r.put(StudyLabels.CONTROL, StudyLabels.AA);
      }
      ArrayNode pairs = r.putArray("pairs");
      others.forEach(o -> pairs.add(pairName(o)));
    });
  }

  /** What a duet's comparisons between neighbouring majors rest on, in study.json, --help and the docs. */
  static final String NEIGHBOURS = "between neighbouring majors (the trend's consecutive versions) the duet runs no"
      + " pairs of its own: it reuses each round's pairs against the base, so 14 against 17 is per round the ratio of"
      + " 17's ratio to its base run over 14's ratio to its base run, each pair's own moment cancelled, the base's"
      + " run-to-run noise added; the published study's sheet compares each major against the base, as the pairs do";

  @Override
  public void workload(ObjectNode root) {
    workload.json(root);
    root.put("read_duration_s", workload.readDuration().toMillis() / 1000.0);
    root.put("write_duration_s", workload.writeDuration().toMillis() / 1000.0);
    root.put("warmup_s", workload.warmup().toMillis() / 1000.0);
    ObjectNode pg = root.putObject("pg_settings");
    new java.util.TreeMap<>(settings).forEach(pg::put);
  }

  @Override
  public Duration threshold() {
    return null;
  }

  @Override
  public String aaInWords() {
    return "side b with side a over its " + aaRounds + " rounds (both PostgreSQL " + base() + ")";
  }

  /** This study's runs, less a duet's a/a control. */
  private String where(String studyId) {
    return StudyLabels.STUDY_ID + "=" + studyId + (design == Design.DUET ? "," + StudyLabels.NOT_CONTROL : "");
  }

  @Override
  public RoundByRound.Decide decide(String studyId) {
    return (w, at) -> UntilDecided.Look.ofTrend(ChainStages.trend(w, BY, base(), "qps", where(studyId), at));
  }

  @Override
  public TrendReport report(Study.Finished finished) {
    finished.status().accept("trend of qps by PostgreSQL major, relative to " + base()
        + (design == Design.DUET ? " (the a/a control's runs left out)" : ""));
    return ChainStages.writeTrend(finished.warehouse(), BY, base(), "qps", where(finished.studyId()),
        finished.settings(), finished::noted, finished.out().resolve("trend"));
  }
}
