package dev.benchlake.app.quickstart;

import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.app.study.Design;
import dev.benchlake.app.study.duet.RoundsConverter;
import dev.benchlake.app.study.StudyFile;
import dev.benchlake.app.study.UntilDecidedOptions;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetOptions;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake quickstart}: the whole product on one machine, in a few minutes. */
@Command(name = "quickstart", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Run the whole chain on this machine: embedded PostgreSQL of two majors, both at the same moment on half "
          + "of the CPUs each (a duet), with the 2016 study's select-update workload and sysbench-like steps; round "
          + "after round until every step is decided (faster, slower or equivalent) or --max-rounds, with an a/a "
          + "control (the baseline against itself) that must come out equivalent. The runs are ingested into a "
          + "warehouse, compared, and charted as a trend.",
      "Takes a few minutes; prints the calls and where the reports are. --design interleaved --runs N runs the "
          + "majors one after the other instead (no pairing, no control, a fixed number of runs)."
    })
public final class QuickstartCommand implements Callable<Integer>, Validated {
  @Option(names = "--out", paramLabel = "DIR", defaultValue = "quickstart",
      description = "Output folder (default: ${DEFAULT-VALUE}): runs/, warehouse/, compare/, aa/, trend/. "
          + "A folder made by an earlier quickstart is replaced.")
  Path out;

  @Option(names = "--pg-versions", paramLabel = "MAJOR,MAJOR", split = ",", defaultValue = "14,17",
      description = "PostgreSQL majors to compare, baseline first (default: ${DEFAULT-VALUE}).")
  List<Integer> majors;

  @Option(names = "--runs", paramLabel = "N",
      converter = RoundsConverter.class, defaultValue = "5",
      description = "Runs per major with --design interleaved, or rounds of a duet with --no-until-decided "
          + "(default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--no-until-decided", description = "A duet of --runs rounds, not run until decided.")
  boolean fixedRounds;

  /**
   * With the a/a control's 4 rounds, 16 rounds in all: 5 minutes on 2 cores with 1 s steps, and
   * most runs stop sooner. The sysbench steps (a per-round SD of the log ratio of 0.003-0.02) are
   * often decided with half as many; select-update (0.016-0.034 with its warm-up burst) took 7 to
   * 12 rounds in four quickstarts of 2026-12-05, each deciding every step (docs/designs.md).
   */
  private static final String DEFAULT_MAX_ROUNDS = "12";

  @Option(names = "--max-rounds", paramLabel = "N",
      converter = RoundsConverter.class, defaultValue = DEFAULT_MAX_ROUNDS,
      description = "A duet run until decided: the most rounds, at least 3, besides the a/a control's; it looks "
          + "after each from round 3 on (Haybittle-Peto boundaries; a look that a step's own medians show cannot "
          + "stop it is skipped; default: ${DEFAULT-VALUE}).")
  int maxRounds;

  /**
   * 1 s, not 2: a sysbench step's per-round spread hardly grows (0.003-0.02 either way), and the time
   * saved buys select-update's rounds.
   */
  @Option(names = "--step-duration", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.Positive.class,
      description = "Measured time of each sysbench-like step (default: ${DEFAULT-VALUE}).")
  Duration stepDuration;

  @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "500ms", converter = DurationConverter.class,
      description = "Warm-up of each sysbench-like step (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(names = "--design", paramLabel = "DESIGN", defaultValue = "duet", converter = Design.Converter.class,
      description = "duet (both majors at the same moment, each on half of the CPUs, with an a/a control; see "
          + "benchlake study ab --help) or interleaved (the majors alternate, run after run) (default: "
          + "${DEFAULT-VALUE}).")
  Design design;

  @Mixin
  DuetOptions duet;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private QuickstartLayout layout;
  private Quickstart quickstart;

  /**
   * Every option before anything starts or is written: the plan (majors, rounds, looks, the a/a
   * rounds, CPU sets), the output folder, and every run's loadgen options on each major
   * ({@link Quickstart#validate}). Durations are checked as they are read (a positive
   * --step-duration, nothing beyond {@link DurationConverter#MAX}).
   */
  @Override
  public void validate(Preflight before) {
    QuickstartPlan plan;
    DuetCpus cpus = duet.cpus(design == Design.DUET);
    try {
      SequentialLooks looks = UntilDecidedOptions.looks(design == Design.DUET && !fixedRounds, maxRounds, design,
          StatisticsSettings.DEFAULTS);
      int rounds = looks == null ? runs : looks.maxRounds();
      plan = new QuickstartPlan(majors, rounds, QuickstartPlan.DEFAULT_STEPS, stepDuration, warmup,
          QuickstartPlan.SYSBENCH_CLIENTS, QuickstartPlan.SelectUpdate.DEFAULT, design, duet.aaRounds(), cpus, looks);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    layout = new QuickstartLayout(out.toAbsolutePath().normalize());
    quickstart = new Quickstart(plan, layout, spec.commandLine().getErr());
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
    Quickstart.Outcome outcome = quickstart.run(() -> sparkOptions.session("quickstart"));
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.println(outcome.comparison().headline());
    if (outcome.comparison().aaControl() != null && outcome.comparison().aaControl().reliable()) {
      stdout.println(outcome.comparison().aaControl().sentence());
    }
    if (outcome.comparison().sequential() != null) {
      stdout.println(outcome.comparison().sequential().sentence());
    }
    stdout.println();
    stdout.print(CompareMarkdown.summaryTable(outcome.comparison()));
    stdout.println();
    stdout.println("Comparison report: " + layout.compare().resolve(CompareFiles.HTML) + " (open it in a browser; also "
        + CompareFiles.JSON + ", " + CompareFiles.MARKDOWN + ")");
    stdout.println("Trend report:      " + layout.trend().resolve(TrendFiles.HTML) + " (also " + TrendFiles.JSON + ", "
        + TrendFiles.MARKDOWN + ")");
    stdout.println("Warehouse:         " + layout.warehouse());
    stdout.println("Explore it:        bin/benchlake runs --warehouse " + layout.warehouse());
    stdout.printf(Locale.ROOT, "%s in %.0f s.%n", outcome.cutShort() == null ? "Done" : "Cut short",
        (System.nanoTime() - startNs) / 1e9);
    stdout.flush();
    return StudyFile.exitCode(outcome.cutShort(), "quickstart", spec.commandLine().getErr());
  }
}
