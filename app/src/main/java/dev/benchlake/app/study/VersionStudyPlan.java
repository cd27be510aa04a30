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
 * @param settings {@code --pg-setting}s, applied to every embedded server
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
    Loadgen.validate(config(majors.get(0), 1, out.resolve("runs").resolve("r1"), Map.of()));
  }

  /** The {@code --pg-setting}s on a server of each major: PostgreSQL refuses a wrong name or value (seconds a major). */
  @Override
  public void checkSettings(PrintWriter log) {
    StudySettings.check(majors.stream().<LoadgenConfig.Target>map(m -> new LoadgenConfig.Embedded(m, settings, pgDir))
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
   * A duet round's pairs, every other major against the base (the base against itself in an a/a
   * round), shuffled by one draw of the seed over the rounds in the order they run.
   */
  @Override
  public Function<DuetSchedule.Round, List<StudyRuns.Measurement>> byRound(Path runs, String studyId) {
    Random random = new Random(seed);
    return r -> {
      List<StudyRuns.Measurement> plan = new ArrayList<>();
      int base = majors.get(0);
      List<Integer> others = new ArrayList<>(r.aa() ? List.of(base) : majors.subList(1, majors.size()));
      Collections.shuffle(others, random);
      for (int other : others) {
        String pair = base + "v" + other;
        String name = "r" + r.round() + (r.aa() ? "-aa" : "-" + pair) + "-";
        plan.add(DuetPairs.pair(DuetPairs.title(r) + ": PostgreSQL " + base + " | " + other, cpus, r,
            (side, set) -> config(side.equals("a") ? base : other, r.round(), runs.resolve(name + side),
                DuetPairs.labels(studyId, SOURCE, r, side, set, pair))));
      }
      return plan;
    };
  }

  /** One run's config (also what validation checks before anything runs). */
  LoadgenConfig config(int major, int round, Path dir, Map<String, String> labels) {
    // The same data for every major of a round; a new draw each round.
    return workload.run(new LoadgenConfig.Embedded(major, settings, pgDir), seed + round, dir, labels);
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
  }

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
