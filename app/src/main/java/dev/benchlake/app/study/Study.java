package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.duet.InterruptShares;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * The one study driver: runs any {@link StudyPlan}. Its rounds run by {@link StudyRuns} (a fixed
 * number, or round by round until a look decides every step: {@link RoundByRound}), the study
 * file rewritten after each measurement (a crash keeps what ran), every run ingested into the
 * study's warehouse, a duet's a/a control compared on its own ({@code aa/}: both sides the
 * baseline, so its θ must come out 1), then the plan's reports. A study cut short reports its
 * complete rounds and says so; {@code complete: true} only once everything is written.
 *
 * @param <R> what the plan reports
 */
public final class Study<R> {
  private final StudyPlan<R> plan;
  private final Path out;
  private final Path warehouseDir;
  private final PrintWriter log;
  private final StatisticsSettings settings;

  /** @param settings α, the margin and the correction of every call the study makes */
  public Study(StudyPlan<R> plan, Path out, Path warehouseDir, PrintWriter log, StatisticsSettings settings) {
    this.plan = plan;
    this.out = out;
    this.warehouseDir = warehouseDir;
    this.log = log;
    this.settings = settings;
  }

  /** What the study produced; {@code cutShort}: it stopped early, and its reports cover its complete rounds. */
  public record Outcome<R>(String studyId, List<Path> runDirs, AaControl control, Path aaDir, R report,
      CutShort cutShort) {}

  /**
   * What a plan's reports read: the runs in the warehouse, decided at {@code settings} (a look's,
   * run until decided), the look the study stopped at (or null), and its a/a control (or null).
   */
  public record Finished(String studyId, Path out, Warehouse warehouse, StatisticsSettings settings,
      SequentialStop stop, CutShort cutShort, AaControl control, Consumer<String> status) {
    /** The comparison of {@code candidate} with {@code baseline} into {@code compare/}, with the control and the stop. */
    public ComparisonReport compare(String baseline, String candidate, Duration threshold) {
      return ChainStages.writeCompare(warehouse, baseline, candidate, threshold, settings, r -> {
        ComparisonReport withControl = control == null ? r : r.withAaControl(control);
        ComparisonReport withStop = stop == null ? withControl : withControl.withSequentialStop(stop);
        return cutShort == null ? withStop : withStop.withCutShort(cutShort);
      }, out.resolve("compare"));
    }

    /**
     * A trend as a study reports it: an a/a control that did not confirm the method leads its warnings
     * ("Unreliable: …", "Control too short to confirm the method: …"), one that did is in its methods, a study run until decided names its rule and the look it stopped
     * at, and one cut short says so.
     */
    public TrendReport noted(TrendReport trend) {
      List<String> warnings = new ArrayList<>(trend.warnings());
      List<String> methods = new ArrayList<>(trend.methods());
      if (control != null && !control.reliable()) {
        warnings.add(0, control.sentence());
      } else if (control != null) {
        methods.add(control.sentence());
      }
      if (stop != null) {
        methods.add(stop.sentence() + " The calls are decided at that look's alpha.");
      }
      TrendReport noted = trend.withNotes(warnings, methods);
      return cutShort == null ? noted : noted.withCutShort(cutShort);
    }
  }

  /** {@code --budget}: the most time the study may take (null: none). */
  private Duration budget;

  /** {@code --verbose}: each measurement's detail on stderr too, not only a line per round ({@link Progress}). */
  private boolean verbose;

  /** {@code --profile}: every measured run's server profiled at this rate (null: none). */
  private Integer profileHz;

  /** This study with {@code --profile} at {@code hz} samples a second, or without (null). */
  public Study<R> profile(Integer hz) {
    profileHz = hz;
    return this;
  }

  /** This study with {@code --verbose} or without. */
  public Study<R> verbose(boolean value) {
    verbose = value;
    return this;
  }

  /** This study with {@code --budget} (null: none), checked by {@link #validate}. */
  public Study<R> budget(Duration value) {
    budget = value;
    return this;
  }

  /** Checks everything a user can get wrong (a duet's taskset among it), starting and writing nothing. */
  public void validate() {
    plan.validate(out);
    if (budget != null && plan.looks() == null) {
      throw new dev.benchlake.core.cli.BadInputException(
          "--budget spends its time on a duet run until decided: drop --no-until-decided, or use --design duet");
    }
    Budget.check(budget, plan);
    if (plan.design() == Design.DUET) {
      StudyRuns.requireTaskset();
    }
  }

  /** Whether {@link StudyPlan#checkSettings} ran (its servers take seconds a major: once a study). */
  private boolean settingsChecked;

  /** The plan's settings on servers of their own, once, before anything is written. */
  public void checkSettings() {
    if (!settingsChecked) {
      settingsChecked = true;
      plan.checkSettings(log);
    }
  }

  /**
   * Runs the study; {@code spark} is created only once the load is done (it would compete for CPU),
   * or, run until decided, at the first look.
   */
  public Outcome<R> run(Supplier<SparkSession> spark) throws IOException, InterruptedException {
    long startNs = System.nanoTime();
    validate();
    checkSettings();
    String studyId = plan.idPrefix() == null ? null
        : plan.idPrefix() + "-" + Long.toHexString(plan.seed()) + "-" + Long.toHexString(System.currentTimeMillis());
    plan.prepare(out, log);
    if (plan.cpus() != null) {
      InterruptShares.sayIfUneven(plan.cpus(), log);
    }
    String noProfiles = profileHz == null ? null : Loadgen.whyNoProfiles();
    if (noProfiles != null) {
      // Once here, not once a run: every run would say the same (each still records why in its manifest).
      status("--profile: no step will be profiled: " + noProfiles);
    }
    StudyFile file = new StudyFile(out);
    file.record(plan, studyId, List.of(), null);
    Progress progress = new Progress(log, verbose);
    StudyRuns runner = new StudyRuns(out, progress, file).profile(profileHz);
    try {
      long deadlineNs = budget == null ? Long.MAX_VALUE : startNs + budget.toNanos();
      Outcome<R> outcome = run(spark, runner, progress, file, studyId, deadlineNs);
      if (outcome.cutShort() == null) {
        file.complete();
      }
      return outcome;
    } finally {
      runner.ended();
    }
  }

  private Outcome<R> run(Supplier<SparkSession> spark, StudyRuns runner, Progress progress, StudyFile file,
      String studyId, long deadlineNs) throws IOException, InterruptedException {
    Path runs = out.resolve("runs");
    Supplier<Warehouse> openWarehouse = () -> Warehouse.at(spark.get(), warehouseDir.toString());
    // What each ingest took in is detail: the look's calls that follow it are the news.
    RoundByRound.Ingest ingest = (warehouse, done) -> ChainStages.ingestLoadgenRuns(warehouse,
        done.stream().map(StudyRuns.Done::dir).toList(), warehouseDir, m -> progress.detail(plan.name() + ": " + m));
    RoundByRound.Ran ran;
    RoundByRound.Decide decide = plan.looks() == null ? null : plan.decide(studyId);
    try (runner) {
      ran = plan.looks() == null
          ? RoundByRound.fixedRounds(runner, plan.measurements(runs, studyId),
              d -> file.record(plan, studyId, d, null), openWarehouse, ingest, settings)
          : new RoundByRound(runner, plan.byRound(runs, studyId), all -> file.record(plan, studyId, all, null),
              openWarehouse, ingest, decide)
              .untilDecided(plan.schedule(), plan.looks(), deadlineNs, progress,
                  (all, s, at) -> file.record(plan, studyId, all, s, at));
    }
    CutShort cut = ran.cutShort();
    if (cut != null) {
      status(cut.sentence());
    }
    if (ran.done().stream().allMatch(StudyRuns::isAaControl)) {
      throw new CutShortException(cut, "No comparison round completed: nothing to report.");
    }
    AaControl control = null;
    Path aaDir = null;
    String study = studyId == null ? "" : StudyLabels.STUDY_ID + "=" + studyId + ",";
    if (plan.design() == Design.DUET && ran.done().stream().anyMatch(StudyRuns::isAaControl)) {
      status("the a/a control: " + plan.aaInWords());
      aaDir = out.resolve("aa");
      String controlRuns = study + StudyLabels.CONTROL + "=" + StudyLabels.AA + "," + StudyLabels.SIDE + "=";
      ComparisonReport aa = ChainStages.writeCompare(ran.warehouse(), controlRuns + "a", controlRuns + "b",
          plan.threshold(), settings, r -> {
            // The control's own page leads with its verdict, not with five per-step calls (issue 49).
            ComparisonReport own = r.asControlItself(AaControl.of(r, settings));
            return cut == null ? own : own.withCutShort(cut);
          }, aaDir);
      control = AaControl.of(aa, settings);
      if (control != null) {
        status(control.sentence());
      }
    }
    R report = plan.report(new Finished(studyId, out, ran.warehouse(), ran.settings(), ran.stop(), cut, control,
        this::status));
    if (decide != null && ran.stop() != null && report instanceof ComparisonReport comparison) {
      // The looks read the run files, the report the warehouse: the same figures, so the same calls.
      List<String> disagree = decide.disagreements(comparison);
      if (!disagree.isEmpty()) {
        status("the stopping look (from the run files) and the comparison (from the warehouse) disagree, a fault in"
            + " benchlake; the report gives the comparison's calls: " + String.join("; ", disagree));
      }
    }
    return new Outcome<>(studyId, ran.done().stream().map(StudyRuns.Done::dir).toList(), control, aaDir, report, cut);
  }

  /**
   * A study command's first line on stdout: where its runs are. How it was cut short is left to the
   * answer's headline ({@link #printAnswer}), which leads with it: printed here too, it came twice.
   */
  public static void printStart(PrintWriter stdout, Outcome<?> outcome, Path outDir) {
    stdout.println("Study " + outcome.studyId() + ": " + outcome.runDirs().size() + " runs in "
        + outDir.resolve("runs"));
  }

  /**
   * A comparison's answer, the lines before the paths (issue 49: the last lines give the answer): its calls
   * ({@code Calls: 2 faster, 3 equivalent (5 steps).}, after how it was cut short and a control that did not
   * confirm the method), the a/a control's verdict and a look's stop.
   */
  public static void printAnswer(PrintWriter stdout, ComparisonReport comparison) {
    stdout.println(comparison.headline());
    if (comparison.aaControl() != null && !comparison.headlineHasControl()) {
      stdout.println(comparison.aaControl().sentence());
    }
    if (comparison.sequential() != null) {
      stdout.println(comparison.sequential().sentence());
    }
  }

  /** What the study measured, a few lines on stdout ({@link Scope#terminalLines}); nothing for a report without runs. */
  public static void printScope(PrintWriter stdout, Scope scope) {
    if (scope != null) {
      scope.terminalLines().forEach(stdout::println);
    }
  }

  /**
   * A study command's last line on stdout, with what its folder {@code out} now holds on disk (a study's
   * runs take hundreds of MB: {@code Done in 352 s; quickstart holds 467 MB.}), and its exit code
   * ({@link StudyFile#exitCode}).
   */
  public static int printEnd(PrintWriter stdout, PrintWriter err, CutShort cut, long startNs, String command,
      Path out) {
    stdout.printf(java.util.Locale.ROOT, "%s in %.0f s; %s holds %s.%n", cut == null ? "Done" : "Cut short",
        (System.nanoTime() - startNs) / 1e9, out, dev.benchlake.core.DiskUsage.human(dev.benchlake.core.DiskUsage.bytes(out)));
    stdout.flush();
    return StudyFile.exitCode(cut, command, err);
  }

  private void status(String message) {
    log.println(plan.name() + ": " + message);
    log.flush();
  }
}
