package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.loadgen.LoadgenConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake calibrate}: does this machine recover a difference of known size, at its size? */
@Command(name = "calibrate", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    sortOptions = false, defaultValueProvider = CalibrateCommand.Defaults.class,
    description = {
      "Accuracy on this machine: one embedded PostgreSQL on both sides, side b handicapped by a known size "
          + "(--sizes: after each task its client spins until that share of the task's time has passed, so every "
          + "latency of side b is (1 + size) x its own), measured by each design (--designs) as study ab measures. "
          + "Per size, design and step it prints the expected ratio, the estimate with its 95 %% interval, whether "
          + "the interval covers the expected ratio, the bias (estimate / expected - 1), the verdict, and the size "
          + "the interval's width could detect; a duet adds its a/a control. Read steps, one client per side.",
      "Runs labelled handicap_stretch: never mix them with real runs."},
    footer = {"", "Examples:", "  benchlake calibrate", "  benchlake calibrate --sizes 3%%,5%%,10%%,15%% --rounds 6",
      "", "Exit codes: 0 done (an interval that misses is a finding: 'covered no' and a Missed: line; a 95 %% "
          + "interval misses 1 time in 20), 1 a run failed (the studies done so far are reported), 2 bad usage or "
          + "bad input (nothing written)."})
public final class CalibrateCommand implements Callable<Integer>, Validated {
  /** The defaults of calibrate's shared options: two read steps, one client, a few minutes in all. */
  static final class Defaults extends StudyDefaults {
    Defaults() {
      super(Map.of("--rounds", "4", "--steps", "point-select,read-only", "--clients", "1", "--duration", "3s",
          "--warmup", "1s", "--between-steps", "none", "--tables", "1", "--table-size", "10000"));
    }
  }

  @Mixin
  CalibrateOptions calibrate;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "calibrate",
      description = "A new or empty folder for report.md, report.json, a study folder per design and size, and "
          + "the warehouse (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin
  RoundsOption rounds;

  @Mixin
  StudyOptions options;

  @Spec
  CommandSpec spec;

  private final List<CalibratePlan> plans = new ArrayList<>();
  private final List<Study<ComparisonReport>> studies = new ArrayList<>();

  /** Every option and every study's plan before anything starts or is written. */
  @Override
  public void validate(Preflight before) {
    StatisticsSettings settings = options.settings();
    List<Double> shares = calibrate.sizes();
    List<Design> kinds = calibrate.designs();
    if (options.untilDecided.untilDecided()) {
      throw new BadInputException("--until-decided: calibrate runs a fixed number of rounds (--rounds)");
    }
    Path outDir = out.toAbsolutePath().normalize();
    StudyFolders.requireNewOrEmpty(outDir);
    DuetCpus cpus;
    try {
      cpus = options.duet.cpus(kinds.contains(Design.DUET));
    } catch (BadInputException e) { // its words name study ab's option
      throw new BadInputException(e.getMessage().replace("--design ", "--designs "), e);
    }
    LoadgenConfig.Embedded server = new LoadgenConfig.Embedded(calibrate.major, Map.of(), options.pgDir());
    plans.clear();
    studies.clear();
    for (double share : shares) {
      for (Design design : kinds) {
        String folder = design.id() + "-" + CalibratePlan.percent(share).replace("%", "pct");
        DuetCpus set = design == Design.DUET ? cpus : null;
        CalibratePlan plan = StudyPlan.fromOptions(() -> new CalibratePlan(server, share, design, rounds.rounds(),
            options.duet.aaRounds(), options.seed(), options.sysbench.workload(set), set, folder));
        plans.add(plan);
        studies.add(new Study<>(plan, outDir.resolve(folder), options.warehouseDir(outDir), spec.commandLine().getErr(),
            settings).verbose(options.verbose.on()));
      }
    }
    studies.forEach(Study::validate);
  }

  @Override
  public List<Path> writes() {
    return options.writes(out);
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    Path outDir = out.toAbsolutePath().normalize();
    PrintWriter err = spec.commandLine().getErr();
    err.println("calibrate: seed " + options.seed() + ", PostgreSQL " + calibrate.major + " on both sides, "
        + plans.size() + " studies (sizes " + calibrate.sizes + " x designs " + calibrate.designs + ")");
    err.flush();
    long startNs = System.nanoTime();
    Calibration calibration = Calibration.empty();
    CutShort cut = null;
    for (int i = 0; i < studies.size() && cut == null; i++) {
      CalibratePlan plan = plans.get(i);
      err.printf(Locale.ROOT, "calibrate: study %d of %d: %s, side b +%s (expected ratio %.3f), in %s%n", i + 1,
          studies.size(), plan.design(), CalibratePlan.percent(plan.stretch()), plan.expected(), plan.folder());
      err.flush();
      Study.Outcome<ComparisonReport> outcome = studies.get(i).run(() -> options.verbose.session(options.spark, "calibrate"));
      calibration = Calibration.add(calibration, plan, outcome.report(), outcome.control());
      cut = outcome.cutShort();
    }
    AtomicFiles.writeString(outDir.resolve("report.md"), "# benchlake calibrate\n\n" + calibration.markdown());
    AtomicFiles.writeString(outDir.resolve("report.json"),
        Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(calibration.json()) + "\n");
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(calibration.markdown());
    stdout.println("Report:       " + outDir.resolve("report.md") + " (also report.json)");
    stdout.println("Warehouse:    " + options.warehouseDir(outDir));
    return Study.printEnd(stdout, err, cut, startNs, "calibrate", outDir);
  }
}
