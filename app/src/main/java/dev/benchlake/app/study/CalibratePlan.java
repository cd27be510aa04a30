package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.run.HandicapStretch;
import dev.benchlake.loadgen.workload.SysbenchStep;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One study of {@code benchlake calibrate}: one embedded server on both sides, side b handicapped by
 * a known {@code stretch} ({@link HandicapStretch}: every task's latency × (1 + stretch)), measured
 * by {@code design}; a duet's a/a rounds run side b without it. Its comparison must recover θ = 1 +
 * stretch on every step. Closed-loop read steps with one client per side only: a write step's
 * commits wait on the disk, whose queue the stretch changes, and a second client would lose CPU to
 * the first one's spin, so neither ratio would be known in advance.
 *
 * @param folder the study's folder under calibrate's ({@code duet-10pct})
 */
public record CalibratePlan(LoadgenConfig.Embedded server, double stretch, Design design, int rounds, int aaRounds,
    long seed, Workload.Sysbench workload, DuetCpus cpus, String folder) implements StudyPlan<ComparisonReport> {

  /** The command's name in the runs' {@code source} label. */
  public static final String SOURCE = "calibrate";

  public CalibratePlan {
    if (rounds < 2) {
      throw new IllegalArgumentException("--rounds must be at least 2 (the run is the unit of replication), not "
          + rounds);
    }
    if (design == Design.SEQUENTIAL) {
      throw new IllegalArgumentException("--designs: calibrate runs duet and interleaved, not sequential");
    }
    if (!(stretch > 0 && stretch <= HandicapStretch.MAX)) {
      throw new IllegalArgumentException("--sizes: a handicap is above 0% and at most 100%, not " + percent(stretch));
    }
    StudyPlan.checkRounds("calibration", design, rounds, aaRounds, seed, null);
  }

  /** The expected ratio of side b to side a on every step: 1 + stretch. */
  public double expected() {
    return 1 + stretch;
  }

  /** {@code 10%}, {@code 2.5%}: the size as the user gave it. */
  public static String percent(double stretch) {
    return java.math.BigDecimal.valueOf(stretch * 100).stripTrailingZeros().toPlainString() + "%";
  }

  @Override
  public String name() {
    return "calibrate";
  }

  @Override
  public String idPrefix() {
    return "calibrate-" + design.id();
  }

  @Override
  public SequentialLooks looks() {
    return null;
  }

  /** The steps (read steps, one client), every run's loadgen options, the folder. */
  @Override
  public void validate(Path out) {
    StudyFolders.requireNewOrEmpty(out);
    for (String step : workload.steps()) {
      if (SysbenchStep.byName(step).map(SysbenchStep::writes).orElse(true)) {
        throw new BadInputException("--steps: calibrate runs read steps (e.g. point-select, read-only), not " + step
            + ": a write's commit waits on the disk, whose queue the handicap changes");
      }
    }
    if (workload.clients() != 1) {
      throw new BadInputException("--clients: calibrate runs one client per side, not " + workload.clients()
          + ": a second client would lose CPU to the first one's handicap, by an amount not known in advance");
    }
    Loadgen.validate(config("b", out.resolve("validate"), "validate", 1, "r1-b", false, null));
  }

  @Override
  public void checkSettings(PrintWriter log) {
    StudySettings.check(List.of(server), workload.clients(), log);
  }

  @Override
  public List<StudyRuns.Measurement> unpaired(Path runs, String studyId) {
    return RunOrder.of(List.of("a", "b"), rounds, seed, design).stream().<StudyRuns.Measurement>map(run ->
        new StudyRuns.Alone("round " + run.round() + ", side " + run.side() + side(run.side(), false),
            config(run.side(), runs, studyId, run.round(), "r" + run.round() + "-" + run.side(), false, null)))
        .toList();
  }

  @Override
  public Function<DuetSchedule.Round, List<StudyRuns.Measurement>> byRound(Path runs, String studyId) {
    return r -> {
      String name = "r" + r.round() + (r.aa() ? "-aa" : "") + "-";
      return List.of(DuetPairs.pair(DuetPairs.title(r) + ": a" + side("a", r.aa()) + " | b" + side("b", r.aa()), cpus,
          r, (side, set) -> config(side, runs, studyId, r.round(), name + side, r.aa(), set)));
    };
  }

  private String side(String side, boolean aa) {
    return " PostgreSQL " + server.major() + (side.equals("b") && !aa ? " +" + percent(stretch) + " handicap" : "");
  }

  /** One run: side b handicapped outside the a/a rounds; both sides of a round load the same data. */
  LoadgenConfig config(String side, Path runs, String studyId, int round, String dirName, boolean aa, CpuList set) {
    return workload.apply(LoadgenConfig.builder().target(server).randomSeed(seed + round).outDir(runs.resolve(dirName))
        .labels(StudyLabels.of(studyId, SOURCE, design, round, side, aa, set))
        .handicapStretch(side.equals("b") && !aa ? stretch : 0));
  }

  @Override
  public void head(ObjectNode root) {
    root.put("seed", seed);
    root.put("server", "PostgreSQL " + server.major());
    root.put("handicap_stretch", stretch);
    root.put("expected_ratio", expected());
  }

  @Override
  public void workload(ObjectNode root) {
    workload.json(root);
  }

  @Override
  public String aaInWords() {
    return "side b with side a over its " + aaRounds + " rounds (both unhandicapped)";
  }

  @Override
  public RoundByRound.Decide decide(String studyId) {
    throw new IllegalStateException("a calibration runs a fixed number of rounds");
  }

  @Override
  public ComparisonReport report(Study.Finished finished) {
    finished.status().accept(String.format(Locale.ROOT, "comparing side b (+%s handicap) with side a, %s",
        percent(stretch), design));
    return finished.compare(StudyLabels.comparisonSide(finished.studyId(), "a"),
        StudyLabels.comparisonSide(finished.studyId(), "b"), THRESHOLD);
  }
}
