package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.duet.InterruptShares;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * {@code study ab}: the {@link AbStudyPlan}'s runs, one ingest of them all, then the comparison of
 * side b with side a over the comparison's rounds ({@code compare/}) and, for a duet, the same
 * comparison of its a/a control's rounds ({@code aa/}: both sides the baseline, so its θ must
 * come out 1). Output folder: {@code runs/}, {@code logs/} (a duet's sides' output),
 * {@code compare/}, {@code aa/}, {@code study.json}, and the warehouse ({@code warehouse/} unless
 * another is given).
 */
public final class AbStudy {
  public static final String STUDY_FILE = StudyFile.NAME;
  /** Latency above this counts as an error in the comparisons, as the quickstart's. */
  private static final Duration THRESHOLD = Duration.ofSeconds(5);

  private final AbStudyPlan plan;
  private final Path out;
  private final Path warehouseDir;
  private final PrintWriter log;

  public AbStudy(AbStudyPlan plan, Path out, Path warehouseDir, PrintWriter log) {
    this.plan = plan;
    this.out = out;
    this.warehouseDir = warehouseDir;
    this.log = log;
  }

  /** What the study produced; {@code cutShort}: it stopped early, and its reports cover its complete rounds. */
  public record Outcome(String studyId, List<Path> runDirs, ComparisonReport comparison, Path compareDir,
      ComparisonReport aa, Path aaDir, CutShort cutShort) {}

  /**
   * Checks everything a user can get wrong, starting and writing nothing: the sides, the loadgen
   * options of every kind of run (an embedded side's binaries and --pg-dir among them), a duet's
   * needs (taskset, two servers by URL that do not share a database), the output folder. What only
   * PostgreSQL can tell (a setting it refuses) is {@link #checkSettings}'s, before the first run.
   */
  public void validate() {
    StudyFolders.requireNewOrEmpty(out);
    Path probe = out.resolve("validate");
    for (AbStudyPlan.Side side : List.of(plan.a(), plan.b())) {
      Loadgen.validate(plan.config(side, probe, "validate", 1, "r1-a", "a", false, null));
    }
    if (plan.design() == Design.DUET) {
      StudyRuns.requireTaskset();
      if (plan.a().target() instanceof LoadgenConfig.External xa) {
        if (plan.b().target() instanceof LoadgenConfig.External xb && xa.jdbcUrl().equals(xb.jdbcUrl())) {
          throw new BadInputException("--a-jdbc-url and --b-jdbc-url are the same database: a duet's sides load their "
              + "tables at once, so give each side a database of its own");
        }
        if (plan.aaSecond() == null) {
          throw new BadInputException("a duet's a/a control runs side a's server on both sides at once: give "
              + "--aa-jdbc-url, another database of side a's server, for its second side");
        }
      }
    }
  }

  /** Whether {@link #checkSettings} ran (its servers take seconds a major: once a study). */
  private boolean settingsChecked;

  /** Each embedded side's settings, on a server started once with them: PostgreSQL itself refuses a wrong one. */
  void checkSettings() {
    if (settingsChecked) {
      return;
    }
    settingsChecked = true;
    StudySettings.check(List.of(plan.a().target(), plan.b().target()), plan.workload().clients(), log);
  }

  /**
   * Runs the study; {@code spark} is created only once the load is done (it would compete for CPU),
   * or, run until decided, at the first look.
   */
  public Outcome run(Supplier<SparkSession> spark) throws IOException, InterruptedException {
    validate();
    checkSettings();
    String studyId = "ab-" + Long.toHexString(plan.seed()) + "-" + Long.toHexString(System.currentTimeMillis());
    Files.createDirectories(out.resolve("runs"));
    String study = StudyLabels.STUDY_ID + "=" + studyId;
    String baseline = study + "," + StudyLabels.SIDE + "=a," + StudyLabels.NOT_CONTROL;
    String candidate = study + "," + StudyLabels.SIDE + "=b," + StudyLabels.NOT_CONTROL;
    if (plan.cpus() != null) {
      InterruptShares.sayIfUneven(plan.cpus(), log);
    }
    StudyFile file = new StudyFile(out);
    writeStudyFile(file, studyId, List.of(), null);
    StudyRuns runner = new StudyRuns(out, log, file);
    try {
      Outcome outcome = run(spark, runner, file, studyId, study, baseline, candidate);
      if (outcome.cutShort() == null) {
        file.complete();
      }
      return outcome;
    } finally {
      runner.ended();
    }
  }

  private Outcome run(Supplier<SparkSession> spark, StudyRuns runner, StudyFile file, String studyId, String study,
      String baseline, String candidate) throws IOException, InterruptedException {
    RoundByRound.Ran ran;
    try (runner) {
      if (plan.looks() == null) {
        ran = RoundByRound.fixedRounds(runner, plan.measurements(out, studyId), d -> writeStudyFile(file, studyId, d,
            null), () -> Warehouse.at(spark.get(), warehouseDir.toString()), this::ingest, StatisticsSettings.DEFAULTS);
      } else {
        ran = new RoundByRound(runner, round -> List.of(plan.measurementOf(round, out, studyId)),
            all -> writeStudyFile(file, studyId, all, null), () -> Warehouse.at(spark.get(), warehouseDir.toString()),
            this::ingest, RoundByRound.Decide.byComparing((w, at) -> ChainStages.compare(w, baseline, candidate,
                THRESHOLD, at))).untilDecided(plan.schedule(), plan.looks(), log, (all, s) -> writeStudyFile(file,
            studyId, all, s));
      }
    }
    CutShort cut = ran.cutShort();
    if (cut != null) {
      status(cut.sentence());
    }
    List<StudyRuns.Done> done = ran.done();
    Warehouse warehouse = ran.warehouse();
    StatisticsSettings settings = ran.settings();
    SequentialStop stop = ran.stop();
    List<Path> runDirs = done.stream().map(StudyRuns.Done::dir).toList();
    ComparisonReport aa = null;
    Path aaDir = null;
    AaControl control = null;
    String controlRuns = study + "," + StudyLabels.CONTROL + "=" + StudyLabels.AA;
    if (!has(done, false)) {
      throw new CutShortException(cut, "No comparison round completed: nothing to compare.");
    }
    if (plan.design() == Design.DUET && has(done, true)) {
      status("the a/a control: side b with side a over its " + plan.aaRounds() + " rounds (both the baseline)");
      aaDir = out.resolve("aa");
      aa = ChainStages.writeCompare(warehouse, controlRuns + "," + StudyLabels.SIDE + "=a",
          controlRuns + "," + StudyLabels.SIDE + "=b", THRESHOLD, StatisticsSettings.DEFAULTS,
          r -> cut == null ? r : r.withCutShort(cut), aaDir);
      control = AaControl.of(aa, StatisticsSettings.DEFAULTS);
      if (control != null) {
        status(control.sentence());
      }
    }
    status("comparing side b (" + plan.b().describe() + ") with side a (" + plan.a().describe() + ")");
    Path compareDir = out.resolve("compare");
    AaControl theControl = control;
    SequentialStop theStop = stop;
    ComparisonReport comparison = ChainStages.writeCompare(warehouse, baseline, candidate, THRESHOLD, settings,
        r -> {
          ComparisonReport withControl = theControl == null ? r : r.withAaControl(theControl);
          ComparisonReport withStop = theStop == null ? withControl : withControl.withSequentialStop(theStop);
          return cut == null ? withStop : withStop.withCutShort(cut);
        }, compareDir);
    return new Outcome(studyId, runDirs, comparison, compareDir, aa, aaDir, cut);
  }

  /** Whether {@code done} holds a run of the a/a control ({@code aa}) or of the comparison. */
  private static boolean has(List<StudyRuns.Done> done, boolean aa) {
    return done.stream().anyMatch(d -> StudyRuns.isAaControl(d) == aa);
  }

  private void ingest(Warehouse warehouse, List<StudyRuns.Done> runs) throws IOException {
    ChainStages.ingestLoadgenRuns(warehouse, runs.stream().map(StudyRuns.Done::dir).toList(), warehouseDir,
        this::status);
  }

  /** The plan, the design and the runs so far, rewritten after each measurement (a crash keeps what ran). */
  private void writeStudyFile(StudyFile file, String studyId, List<StudyRuns.Done> done, SequentialStop stop) {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("study_id", studyId);
    root.put("seed", plan.seed());
    root.put("a", plan.a().describe());
    root.put("b", plan.b().describe());
    StudyRuns.design(root, plan.design(), plan.rounds(), plan.design() == Design.DUET ? plan.schedule() : null,
        plan.cpus());
    StudyRuns.untilDecided(root, plan.looks(), stop);
    var steps = root.putArray("steps");
    plan.workload().steps().forEach(steps::add);
    root.put("clients", plan.workload().clients());
    root.put("tables", plan.workload().tables());
    root.put("table_size", plan.workload().tableSize());
    root.put("between_steps", plan.workload().betweenSteps().id());
    StudyRuns.order(root, out, done);
    file.write(root);
  }

  private void status(String message) {
    log.println("study: " + message);
    log.flush();
  }
}
