package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.duet.InterruptShares;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.EmbeddedBinaries;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * A version study: every measurement of the {@link VersionStudyPlan} on fresh embedded servers of
 * its majors (loadgen starts and stops one per run: runs that share a server share its caches and
 * state), then one ingest of all runs and the trend of qps by {@code db_major}, relative to the
 * first major, over this study's runs only (label {@code study_id}; a duet's a/a control left out).
 * A duet's a/a control is compared on its own ({@code aa/}, {@link AaControl}) and leads the
 * trend's warnings when it is not equivalent. Run until decided ({@code --until-decided}), the
 * rounds run one at a time and the trend is decided after each from the first look on
 * ({@link UntilDecided}), until every step of every version is decided against the base.
 *
 * <p>Output folder: {@code runs/} (raw loadgen runs), {@code logs/} (a duet's sides' output),
 * {@code trend/} (trend.json/md/html), {@code study.json} (the plan, the design, the seed and the
 * order the runs ran in), and the warehouse ({@code warehouse/} unless another is given).
 */
public final class VersionStudy {
  /** The label that ties a study's runs together; its trend selects on it. */
  public static final String STUDY_LABEL = StudyLabels.STUDY_ID;
  public static final String STUDY_FILE = StudyFile.NAME;

  private final VersionStudyPlan plan;
  private final Path out;
  private final Path warehouseDir;
  private final PrintWriter log;
  private final StatisticsSettings settings;

  /** @param settings α, the margin and the correction of the trend's calls */
  public VersionStudy(VersionStudyPlan plan, Path out, Path warehouseDir, PrintWriter log, StatisticsSettings settings) {
    this.plan = plan;
    this.settings = settings;
    this.out = out;
    this.warehouseDir = warehouseDir;
    this.log = log;
  }

  /** What the study produced. */
  public record Outcome(String studyId, List<Path> runDirs, TrendReport trend, Path trendDir, AaControl control,
      CutShort cutShort) {}

  /**
   * Checks everything a user can get wrong, starting and writing nothing: the majors' binaries,
   * the loadgen options (by validating the first run's config), a duet's needs, the output folder.
   * What only PostgreSQL can tell (a --pg-setting it refuses) is {@link #checkSettings}'s.
   *
   * @throws dev.benchlake.core.cli.BadInputException naming the problem
   */
  public void validate() {
    List<Integer> available = EmbeddedBinaries.discover().majors();
    for (int major : plan.majors()) {
      if (!available.contains(major)) {
        throw new BadInputException("--pg " + major + ": no embedded PostgreSQL " + major + " for this platform; "
            + "available: " + String.join(", ", available.stream().map(String::valueOf).toList()));
      }
    }
    StudyFolders.requireNewOrEmpty(out);
    Loadgen.validate(plan.config(plan.majors().get(0), 1, out.resolve("runs").resolve("r1"), Map.of()));
    if (plan.design() == Design.DUET) {
      StudyRuns.requireTaskset();
    }
  }

  /** Whether {@link #checkSettings} ran (its servers take seconds a major: once a study). */
  private boolean settingsChecked;

  /** The {@code --pg-setting}s on a server of each major: PostgreSQL refuses a wrong name or value (seconds a major). */
  void checkSettings() {
    if (settingsChecked) {
      return;
    }
    settingsChecked = true;
    List<LoadgenConfig.Target> targets = plan.majors().stream()
        .<LoadgenConfig.Target>map(m -> new LoadgenConfig.Embedded(m, plan.settings(), plan.pgDir())).toList();
    StudySettings.check(targets, plan.clients(), log);
  }

  /** Runs the study; {@code spark} is created only once the load is done (it would compete for CPU). */
  public Outcome run(Supplier<SparkSession> spark) throws IOException, InterruptedException {
    validate();
    checkSettings();
    String studyId = "versions-" + Long.toHexString(plan.seed()) + "-" + Long.toHexString(System.currentTimeMillis());
    Files.createDirectories(out.resolve("runs"));
    if (plan.cpus() != null) {
      InterruptShares.sayIfUneven(plan.cpus(), log);
    }
    String where = STUDY_LABEL + "=" + studyId + (plan.design() == Design.DUET ? "," + StudyLabels.NOT_CONTROL : "");
    StudyFile file = new StudyFile(out);
    writeStudyFile(file, studyId, List.of(), null);
    StudyRuns runner = new StudyRuns(out, log, file);
    try {
      Outcome outcome = run(spark, runner, file, studyId, where);
      if (outcome.cutShort() == null) {
        file.complete();
      }
      return outcome;
    } finally {
      runner.ended();
    }
  }

  private Outcome run(Supplier<SparkSession> spark, StudyRuns runner, StudyFile file, String studyId, String where)
      throws IOException, InterruptedException {
    RoundByRound.Ran ran;
    try (runner) {
      if (plan.looks() == null) {
        ran = RoundByRound.fixedRounds(runner, plan.measurements(out, studyId), d -> writeStudyFile(file, studyId, d,
            null), () -> Warehouse.at(spark.get(), warehouseDir.toString()), this::ingest, settings);
      } else {
        // One shuffle of the pairs' order over the rounds, in the order they run: as plan.measurements.
        java.util.Random order = new java.util.Random(plan.seed());
        ran = new RoundByRound(runner, round -> plan.duetRound(round, out, studyId, order),
            all -> writeStudyFile(file, studyId, all, null), () -> Warehouse.at(spark.get(), warehouseDir.toString()),
            this::ingest, (w, at) -> UntilDecided.Look.ofTrend(ChainStages.trend(w, "db_major", plan.base(), "qps",
                where, at))).untilDecided(plan.duetSchedule(), plan.looks(), log, (all, s) -> writeStudyFile(file,
            studyId, all, s));
      }
    }
    CutShort cut = ran.cutShort();
    if (cut != null) {
      status(cut.sentence());
    }
    List<StudyRuns.Done> done = ran.done();
    Warehouse warehouse = ran.warehouse();
    StatisticsSettings decideAt = ran.settings();
    SequentialStop stop = ran.stop();
    List<Path> runDirs = done.stream().map(StudyRuns.Done::dir).toList();
    boolean aaRan = done.stream().anyMatch(StudyRuns::isAaControl);
    if (done.stream().allMatch(StudyRuns::isAaControl)) {
      throw new CutShortException(cut, "No comparison round completed: no trend to draw.");
    }
    AaControl control = plan.design() == Design.DUET && aaRan ? aaControl(warehouse, studyId, cut) : null;
    Path trendDir = out.resolve("trend");
    status("trend of qps by PostgreSQL major, relative to " + plan.base()
        + (plan.design() == Design.DUET ? " (the a/a control's runs left out)" : ""));
    SequentialStop theStop = stop;
    TrendReport trend = ChainStages.writeTrend(warehouse, "db_major", plan.base(), "qps", where, decideAt,
        r -> {
          TrendReport noted = withControlAndStop(r, control, theStop);
          return cut == null ? noted : noted.withCutShort(cut);
        }, trendDir);
    return new Outcome(studyId, runDirs, trend, trendDir, control, cut);
  }

  /**
   * The a/a control of a duet: side b against side a over its rounds (both the base), compared into
   * {@code aa/} and summed up by rounds ({@link AaControl}); null without two rounds.
   */
  private AaControl aaControl(Warehouse warehouse, String studyId, CutShort cut) {
    status("the a/a control: side b with side a over its " + plan.aaRounds() + " rounds (both PostgreSQL "
        + plan.base() + ")");
    String controlRuns = STUDY_LABEL + "=" + studyId + "," + StudyLabels.CONTROL + "=" + StudyLabels.AA;
    ComparisonReport aa = ChainStages.writeCompare(warehouse, controlRuns + "," + StudyLabels.SIDE + "=a",
        controlRuns + "," + StudyLabels.SIDE + "=b", null, settings, r -> cut == null ? r : r.withCutShort(cut),
        out.resolve("aa"));
    AaControl control = AaControl.of(aa, settings);
    if (control != null) {
      status(control.sentence());
    }
    return control;
  }

  /**
   * The trend as the study reports it: a failed a/a control leads its warnings ("Unreliable: …"), a
   * sound one is in its methods, and a study run until decided names its rule and the look it
   * stopped at.
   */
  static TrendReport withControlAndStop(TrendReport trend, AaControl control, SequentialStop stop) {
    List<String> warnings = new java.util.ArrayList<>(trend.warnings());
    List<String> methods = new java.util.ArrayList<>(trend.methods());
    if (control != null && !control.reliable()) {
      warnings.add(0, control.sentence());
    } else if (control != null) {
      methods.add(control.sentence());
    }
    if (stop != null) {
      methods.add(stop.sentence() + " The calls are decided at that look's alpha.");
    }
    return trend.withNotes(warnings, methods);
  }

  private void ingest(Warehouse warehouse, List<StudyRuns.Done> runs) throws IOException {
    ChainStages.ingestLoadgenRuns(warehouse, runs.stream().map(StudyRuns.Done::dir).toList(), warehouseDir,
        this::status);
  }

  /** The plan, the design and the order the runs ran in, rewritten after each measurement (a crash keeps what ran). */
  private void writeStudyFile(StudyFile file, String studyId, List<StudyRuns.Done> done, SequentialStop stop) {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("study_id", studyId);
    root.put("seed", plan.seed());
    ArrayNode majors = root.putArray("majors");
    plan.majors().forEach(majors::add);
    root.put("repeats", plan.repeats());
    StudyRuns.design(root, plan.design(), plan.repeats(), plan.design() == Design.DUET ? plan.duetSchedule() : null,
        plan.cpus());
    StudyRuns.untilDecided(root, plan.looks(), stop);
    ArrayNode steps = root.putArray("steps");
    plan.steps().forEach(steps::add);
    root.put("tables", plan.tables());
    root.put("table_size", plan.tableSize());
    root.put("clients", plan.clients());
    root.put("read_duration_s", plan.readDuration().toMillis() / 1000.0);
    root.put("write_duration_s", plan.writeDuration().toMillis() / 1000.0);
    root.put("warmup_s", plan.warmup().toMillis() / 1000.0);
    ObjectNode settings = root.putObject("pg_settings");
    new java.util.TreeMap<>(plan.settings()).forEach(settings::put);
    StudyRuns.order(root, out, done);
    file.write(root);
  }

  private void status(String message) {
    log.println("study: " + message);
    log.flush();
  }
}
