package dev.benchlake.app.quickstart;

import dev.benchlake.analysis.cli.FailOn;
import dev.benchlake.analysis.cli.StatisticsOptions;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.app.study.Design;
import dev.benchlake.app.study.FailOnOption;
import dev.benchlake.app.study.ProfileOption;
import dev.benchlake.app.study.VerboseOption;
import dev.benchlake.app.study.RoundsOption;
import dev.benchlake.app.study.Study;
import dev.benchlake.app.study.StudyDefaults;
import dev.benchlake.app.study.StudyPlan;
import dev.benchlake.app.study.Budget;
import dev.benchlake.app.study.UntilDecidedOptions;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetOptions;
import dev.benchlake.app.study.duet.RoundsConverter;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake quickstart}: the whole product on one machine, in a few minutes. */
@Command(name = "quickstart", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    defaultValueProvider = QuickstartCommand.Defaults.class,
    description = {
      "Run the whole chain on this machine: embedded PostgreSQL of two majors, both at the same moment on half "
          + "of the CPUs each (a duet), with the 2016 study's select-update workload and sysbench-like steps; round "
          + "after round until every step is decided (faster, slower or equivalent) or --max-rounds, with an a/a "
          + "control (the baseline against itself) that must come out equivalent. The runs are ingested into a "
          + "warehouse, compared, and charted as a trend.",
      "Takes a few minutes; prints the calls and where the reports are. --design interleaved --rounds N runs the "
          + "majors one after the other instead (no pairing, no control, a fixed number of runs)."
    })
public final class QuickstartCommand implements Callable<Integer>, Validated {
  /** The default of the options the quickstart shares with the studies. */
  static final class Defaults extends StudyDefaults {
    Defaults() {
      super(Map.of("--rounds", "5"));
    }
  }

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "quickstart",
      description = "Output folder (default: ${DEFAULT-VALUE}): runs/, warehouse/, compare/, aa/, trend/. "
          + "A folder made by an earlier quickstart is kept: renamed with the time it started "
          + "(quickstart.2026-12-06T16-40-12) before anything is written.")
  Path out;

  @Option(names = "--pg-versions", paramLabel = "MAJOR,MAJOR", split = ",", defaultValue = "14,17",
      description = "PostgreSQL majors to compare, baseline first (default: ${DEFAULT-VALUE}).")
  List<Integer> majors;

  @Mixin
  RoundsOption rounds;

  @Option(names = "--no-until-decided", description = "A duet of --rounds rounds, not run until decided.")
  boolean fixedRounds;

  /**
   * With the a/a control's 6 rounds ({@code AaControl.DEFAULT_ROUNDS}), 18 rounds at most: about 5.5 minutes on 2
   * cores when every round runs, enough to decide select-update.
   */
  private static final String DEFAULT_MAX_ROUNDS = "12";

  @Option(names = "--max-rounds", paramLabel = "N",
      converter = RoundsConverter.class, defaultValue = DEFAULT_MAX_ROUNDS,
      description = "A duet run until decided: the most rounds, at least 3, besides the a/a control's; it looks "
          + "after each from round 3 on (Haybittle-Peto boundaries); a step decided at a look drops out of later "
          + "rounds, and a look at which the runs' own medians show no open step can be decided is skipped (default: "
          + "${DEFAULT-VALUE}).")
  int maxRounds;

  @Option(names = "--budget", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = Budget.DESCRIPTION)
  Duration budget;

  /** 1 s, not 2: a sysbench step's per-round spread hardly grows, and the time saved buys select-update's rounds. */
  @Option(names = "--step-duration", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.Positive.class,
      description = "Measured time of each sysbench-like step (default: ${DEFAULT-VALUE}).")
  Duration stepDuration;

  @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "500ms", converter = DurationConverter.class,
      description = "Warm-up of each sysbench-like step (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  /**
   * vacuum-analyze by default, so that both sides start every step without dead tuples. Why: with none,
   * {@code insert} started on {@code update-index}'s dead tuples, of which the faster side had written more (a
   * dead-tuple fraction of 0.106 on 14 and 0.193 on 17), a table-maintenance confounder on that step in every
   * run (docs/designs.md).
   */
  @Option(names = "--between-steps", paramLabel = "WHAT", converter = BetweenSteps.Converter.class,
      defaultValue = "vacuum-analyze",
      description = "What each side runs on its tables between the sysbench-like steps, outside the measured windows: "
          + "vacuum-analyze (both start every step without the previous steps' dead tuples), analyze, checkpoint or "
          + "none (maintenance left to each server's autovacuum) (default: ${DEFAULT-VALUE}; docs/designs.md).")
  BetweenSteps betweenSteps;

  @Option(names = "--design", paramLabel = "DESIGN", defaultValue = "duet", converter = Design.Converter.class,
      description = "duet (both majors at the same moment, each on half of the CPUs, with an a/a control; see "
          + "benchlake study ab --help) or interleaved (the majors alternate, run after run) (default: "
          + "${DEFAULT-VALUE}).")
  Design design;

  @Mixin
  DuetOptions duet;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  SparkOptions sparkOptions;

  @Mixin
  FailOnOption failOn;

  @Mixin
  VerboseOption verbose;

  @Mixin
  ProfileOption profile;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private QuickstartLayout layout;
  private Study<ComparisonReport> quickstart;

  /**
   * Every option before anything starts or is written: α, margin and correction, the plan (majors,
   * rounds, looks, the a/a rounds, CPU sets), the output folder, and every run's loadgen options on
   * each major. Durations are checked as they are read (a positive --step-duration, nothing beyond
   * {@link DurationConverter#MAX}).
   */
  @Override
  public void validate(Preflight before) {
    StatisticsSettings settings = statistics.settings();
    DuetCpus cpus = duet.cpus(design == Design.DUET);
    QuickstartPlan plan = StudyPlan.fromOptions(() -> {
      SequentialLooks looks = UntilDecidedOptions.looks(design == Design.DUET && !fixedRounds, maxRounds, design,
          settings);
      return new QuickstartPlan(majors, rounds.rounds(looks),
          QuickstartPlan.workloads(stepDuration, warmup, betweenSteps), design, duet.aaRounds(), cpus,
          duet.serverSettings(design == Design.DUET, Map.of()), looks);
    });
    layout = new QuickstartLayout(out.toAbsolutePath().normalize());
    quickstart = new Study<>(plan, layout.root(), layout.warehouse(), spec.commandLine().getErr(), settings)
        .budget(budget).verbose(verbose.on()).profile(profile.hz());
    quickstart.validate();
  }

  @Override
  public List<Path> writes() {
    return Validated.local(out);
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    long startNs = System.nanoTime();
    Study.Outcome<ComparisonReport> outcome = quickstart.run(() -> verbose.session(sparkOptions, "quickstart"));
    ComparisonReport comparison = outcome.report();
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(CompareMarkdown.summaryTable(comparison));
    stdout.println();
    Study.printScope(stdout, comparison.scope());
    stdout.println();
    Study.printAnswer(stdout, comparison);
    stdout.println();
    stdout.println("Comparison report: " + layout.compare().resolve(CompareFiles.HTML) + " (open it in a browser; also "
        + CompareFiles.JSON + ", " + CompareFiles.MARKDOWN + ")");
    stdout.println("Trend report:      " + layout.trend().resolve(TrendFiles.HTML) + " (also " + TrendFiles.JSON + ", "
        + TrendFiles.MARKDOWN + ")");
    stdout.println("Warehouse:         " + layout.warehouse());
    stdout.println("Explore it:        bin/benchlake runs --warehouse " + layout.warehouse());
    int ended = Study.printEnd(stdout, spec.commandLine().getErr(), outcome.cutShort(), startNs, "quickstart",
        layout.root());
    return failOn.exitCode(ended, "quickstart", FailOn.calls(comparison), outcome.control(), spec.commandLine().getErr());
  }
}
