package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetOptions;
import dev.benchlake.app.study.duet.RoundsConverter;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.analysis.cli.StatisticsOptions;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake study versions}: how did performance change across PostgreSQL majors? */
@Command(name = "versions", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "The PostgreSQL version study (mdcallag's sysbench study of 11 to 16) in one command: every major of --pg "
          + "on a fresh embedded server per run, --repeats rounds in an order shuffled by --seed, the runs "
          + "ingested into the warehouse, then the trend of each step's qps relative to the first major "
          + "(trend.json, trend.md, trend.html). scan is counted as the study counts it: each client scans every "
          + "table once, and its qps is the rows scanned per second.",
      "The defaults are a short study: 3 majors x 2 rounds of the whole mytools step set (48 steps) at 1 s "
          + "each, 1 client, on 4 tables of 10000 rows: 6 runs of about 1 minute, 7.5 minutes in all on a busy "
          + "2-core machine. The published study ran 8 clients on 4 tables of 20M rows, 600 s for each read step "
          + "and 1200 s for each write step, after a 5 s warm-up: --clients 8 --tables 4 --table-size 20000000 "
          + "--read-duration 600s --write-duration 1200s --warmup 5s.",
      "--design duet measures each other major against the first at the same moment, each on a CPU set of its "
          + "own, with an a/a control (see benchlake study ab --help)."
    },
    footer = {"", "Examples:",
      "  benchlake study versions --pg 11,12,13,14,15,16,17 --steps mytools --repeats 3 --out study1",
      "  benchlake study versions --pg 14,17 --pg-setting shared_buffers=1GB --design duet --out study2",
      "", "Exit codes: 0 done, 1 a run failed (a study cut short reports its complete rounds, and says so), "
          + "2 bad usage or bad input (e.g. a major without embedded binaries, a setting PostgreSQL refuses)."})
public final class VersionsCommand implements Callable<Integer>, Validated {
  @Option(names = "--pg", paramLabel = "MAJOR,MAJOR", split = ",", defaultValue = "11,14,17",
      description = "PostgreSQL majors, the trend's base first (default: ${DEFAULT-VALUE}; embedded: 11..17).")
  List<Integer> majors;

  @Option(names = "--steps", paramLabel = "STEP", split = ",", defaultValue = "mytools",
      description = "loadgen sysbench steps (default: ${DEFAULT-VALUE}, the study's whole sequence; or some of "
          + "its <testType>_range=<R> steps).")
  List<String> steps;

  @Option(names = "--repeats", paramLabel = "N", converter = RoundsConverter.class, defaultValue = "2",
      description = "Rounds: runs per major (default: ${DEFAULT-VALUE}; intervals need 2 or more).")
  int repeats;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the run order and the data (default: random; "
      + "printed and recorded in study.json).")
  Long seed;

  @Option(names = "--tables", paramLabel = "N", defaultValue = "4",
      description = "sbtest tables (default: ${DEFAULT-VALUE}, as the study).")
  int tables;

  @Option(names = "--table-size", paramLabel = "ROWS", defaultValue = "10000",
      description = "Rows per table (default: ${DEFAULT-VALUE}; the study: 20000000).")
  int tableSize;

  @Option(names = "--clients", paramLabel = "N", defaultValue = "1",
      description = "Connections (default: ${DEFAULT-VALUE}; the study: 8).")
  int clients;

  @Option(names = "--read-duration", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.Positive.class,
      description = "Measured time of each read step (default: ${DEFAULT-VALUE}; the study: 600s).")
  Duration readDuration;

  @Option(names = "--write-duration", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.Positive.class,
      description = "Measured time of each write step (default: ${DEFAULT-VALUE}; the study: 1200s).")
  Duration writeDuration;

  @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
      description = "Warm-up of each step (default: ${DEFAULT-VALUE}; the study: 5s).")
  Duration warmup;

  @Option(names = "--pg-setting", paramLabel = "NAME=VALUE",
      description = "A setting of every embedded server (repeatable), checked on a server of each major before "
          + "anything runs; e.g. shared_buffers=1GB.")
  Map<String, String> pgSettings = new LinkedHashMap<>();

  @Option(names = "--design", paramLabel = "DESIGN", defaultValue = "interleaved", converter = Design.Converter.class,
      description = "interleaved, sequential or duet (default: ${DEFAULT-VALUE}).")
  Design design;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "study-versions",
      description = "A new or empty folder for runs/, trend/, study.json (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin
  StudyOptions where;

  @Mixin
  DuetOptions duet;

  @Mixin
  UntilDecidedOptions untilDecided;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private long theSeed;
  private VersionStudyPlan plan;
  private DuetCpus cpus;
  private SequentialLooks looks;
  private VersionStudy study;

  /**
   * Every option before anything starts or is written: α, margin and correction, the plan (majors,
   * repeats, looks, CPU sets), the majors' binaries and the runs' loadgen options ({@link VersionStudy#validate}).
   */
  @Override
  public void validate(Preflight before) {
    StatisticsSettings settings = statistics.settings();
    theSeed = seed != null ? seed : new SplittableRandom().nextLong();
    cpus = duet.cpus(design == Design.DUET);
    looks = untilDecided.looks(design, settings);
    try {
      plan = new VersionStudyPlan(majors, looks == null ? repeats : looks.maxRounds(), theSeed, steps, tables,
          tableSize, clients, readDuration, writeDuration, warmup, pgSettings, where.pgDir(), design,
          duet.aaRounds(), cpus, looks);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    Path outDir = out.toAbsolutePath().normalize();
    study = new VersionStudy(plan, outDir, where.warehouseDir(outDir), spec.commandLine().getErr(), settings);
    study.validate();
  }

  @Override
  public List<Path> writes() {
    return where.writes(out);
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    study.checkSettings();
    Path outDir = out.toAbsolutePath().normalize();
    Path warehouseDir = where.warehouseDir(outDir);
    PrintWriter err = spec.commandLine().getErr();
    err.println("study: seed " + theSeed + ", design " + design + ", " + (design == Design.DUET
        ? plan.measurements(outDir, "plan").size() + " pairs of runs at once on CPU sets " + cpus.one() + " | "
            + cpus.two() + " (" + cpus.swapInWords() + ")" + (looks == null ? "" : ", run until decided: " + looks.inWords())
        : plan.schedule().size() + " runs: " + String.join(" ", plan.schedule().stream()
            .map(VersionStudyPlan.Run::dirName).toList())));
    err.flush();
    long startNs = System.nanoTime();
    VersionStudy.Outcome outcome = study.run(() -> sparkOptions.session("study-versions"));
    PrintWriter stdout = spec.commandLine().getOut();
    if (outcome.cutShort() != null) {
      stdout.println(outcome.cutShort().sentence());
    }
    stdout.println("Study " + outcome.studyId() + ": " + outcome.runDirs().size() + " runs in " + outDir.resolve("runs"));
    stdout.println("Trend report: " + outcome.trendDir().resolve(TrendFiles.HTML) + " (also " + TrendFiles.JSON + ", "
        + TrendFiles.MARKDOWN + ")");
    if (outcome.control() != null) {
      stdout.println("A/a control:  " + outcome.control().sentence() + " (" + outDir.resolve("aa") + ")");
    }
    stdout.println("Warehouse:    " + warehouseDir);
    stdout.println("Run order:    " + outDir.resolve(VersionStudy.STUDY_FILE));
    stdout.printf(Locale.ROOT, "%s in %.0f s.%n", outcome.cutShort() == null ? "Done" : "Cut short",
        (System.nanoTime() - startNs) / 1e9);
    stdout.flush();
    return StudyFile.exitCode(outcome.cutShort(), "study versions", err);
  }
}
