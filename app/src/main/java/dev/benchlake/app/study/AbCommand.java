package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetOptions;
import dev.benchlake.app.study.duet.RoundsConverter;
import dev.benchlake.app.study.duet.SwapRule;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.BetweenSteps;
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

/** {@code benchlake study ab}: is side b faster than side a? Two majors, two settings, or two servers. */
@Command(name = "ab", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
    description = {
      "Two sides on the same sysbench steps, measured together: two PostgreSQL majors (--a-pg 14 --b-pg 17), "
          + "two sets of settings of one major (--a-setting / --b-setting), or two servers (--a-jdbc-url / "
          + "--b-jdbc-url). The runs are ingested into the warehouse and side b is compared with side a "
          + "(compare/report.html).",
      "--design duet (the default) runs both sides at the same moment on this machine, each side's client and "
          + "embedded server pinned to a CPU set of its own (by default half of the CPUs each), the sets "
          + "swapped every round and, where cgroup cpuset groups can be made (root), every " + SwapRule.DEFAULT_PERIOD
          + " inside each step (--cpu-swap, --swap-period), every step started on both sides together and counted over the window they share: "
          + "the machine's second-to-second swings, which make runs taken one after another differ by "
          + "15-25 %% on a VM, hit both sides alike. Every duet carries an a/a control (--aa-rounds, both sides "
          + "side a; its comparison in aa/ must come out 1). A server by URL cannot be pinned: only its client is.",
      "--design interleaved runs the sides one after the other, in an order shuffled every round; sequential "
          + "runs all of side a, then all of side b."
    },
    footer = {"", "Examples:",
      "  benchlake study ab --a-pg 14 --b-pg 17 --rounds 5 --out ab-14-17",
      "  benchlake study ab --a-pg 17 --b-pg 17 --b-setting shared_buffers=128kB --steps point-select --out sb",
      "", "Exit codes: 0 done, 1 a run failed (a study cut short reports its complete rounds, and says so), "
          + "2 bad usage or bad input (nothing written)."})
public final class AbCommand implements Callable<Integer>, Validated {
  @Option(names = "--a-pg", paramLabel = "MAJOR", defaultValue = "17",
      description = "Side a (the baseline): embedded PostgreSQL major (default: ${DEFAULT-VALUE}).")
  int aMajor;

  @Option(names = "--a-setting", paramLabel = "NAME=VALUE",
      description = "Side a: a setting of its embedded server (repeatable).")
  Map<String, String> aSettings = new LinkedHashMap<>();

  @Option(names = "--a-jdbc-url", paramLabel = "URL", description = "Side a: a server by URL instead (password from "
      + "PGPASSWORD, PGPASSFILE or ~/.pgpass).")
  String aJdbcUrl;

  @Option(names = "--a-user", paramLabel = "USER", description = "User for --a-jdbc-url.")
  String aUser;

  @Option(names = "--b-pg", paramLabel = "MAJOR", defaultValue = "17",
      description = "Side b (the candidate): embedded PostgreSQL major (default: ${DEFAULT-VALUE}).")
  int bMajor;

  @Option(names = "--b-setting", paramLabel = "NAME=VALUE",
      description = "Side b: a setting of its embedded server (repeatable).")
  Map<String, String> bSettings = new LinkedHashMap<>();

  @Option(names = "--b-jdbc-url", paramLabel = "URL", description = "Side b: a server by URL instead.")
  String bJdbcUrl;

  @Option(names = "--b-user", paramLabel = "USER", description = "User for --b-jdbc-url.")
  String bUser;

  @Option(names = "--aa-jdbc-url", paramLabel = "URL", description = "A duet of servers by URL: another database of "
      + "side a's server, for the a/a control's second side (both sides load their tables at once).")
  String aaJdbcUrl;

  @Option(names = "--design", paramLabel = "DESIGN", defaultValue = "duet", converter = Design.Converter.class,
      description = "duet, interleaved or sequential (default: ${DEFAULT-VALUE}).")
  Design design;

  @Option(names = "--rounds", paramLabel = "N", converter = RoundsConverter.class, defaultValue = "5",
      description = "Runs per side (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--steps", paramLabel = "STEP", split = ",", defaultValue = "point-select,read-only,update-index,insert",
      description = "loadgen sysbench steps (default: ${DEFAULT-VALUE}, the quickstart's).")
  List<String> steps;

  @Option(names = "--clients", paramLabel = "N", description = "Connections per side (default: in a duet, one per CPU "
      + "of a side, the smaller if they differ, so that no query queues for a CPU; else " + UNPAIRED_CLIENTS + ").")
  Integer clients;

  @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.Positive.class,
      description = "Measured time of each step (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(names = "--read-duration", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "Measured time of the steps that only read, instead of --duration.")
  Duration readDuration;

  @Option(names = "--write-duration", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "Measured time of the steps that write, instead of --duration.")
  Duration writeDuration;

  @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "2s", converter = DurationConverter.class,
      description = "Warm-up of each step (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(names = "--between-steps", paramLabel = "WHAT", converter = BetweenSteps.Converter.class,
      defaultValue = "none", description = "What each side runs on its tables between steps, outside the measured "
      + "windows (both sides then start the next step together): none (maintenance left to each server's autovacuum "
      + "and checkpoints, which fire at moments of their own), analyze, vacuum-analyze or checkpoint "
      + "(default: ${DEFAULT-VALUE}; docs/designs.md).")
  BetweenSteps betweenSteps;

  @Option(names = "--tables", paramLabel = "N", defaultValue = "1", description = "sbtest tables (default: "
      + "${DEFAULT-VALUE}).")
  int tables;

  @Option(names = "--table-size", paramLabel = "ROWS", defaultValue = "10000",
      description = "Rows per table (default: ${DEFAULT-VALUE}).")
  int tableSize;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the order, the a/a rounds' places and the data "
      + "(default: random; recorded in study.json).")
  Long seed;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "study-ab",
      description = "A new or empty folder for runs/, compare/, aa/, study.json (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin
  StudyOptions where;

  @Mixin
  DuetOptions duet;

  @Mixin
  UntilDecidedOptions untilDecided;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private long theSeed;
  private AbStudyPlan plan;
  private AbStudy study;

  /**
   * Every option before anything starts or is written: the sides, the plan (rounds, the a/a rounds,
   * looks, CPU sets), every kind of run's loadgen options ({@link AbStudy#validate}).
   */
  @Override
  public void validate(Preflight before) {
    theSeed = seed != null ? seed : new SplittableRandom().nextLong();
    plan = plan(theSeed);
    study = new AbStudy(plan, out.toAbsolutePath().normalize(), where.warehouseDir(out.toAbsolutePath().normalize()),
        spec.commandLine().getErr());
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
    PrintWriter err = spec.commandLine().getErr();
    Path outDir = out.toAbsolutePath().normalize();
    Path warehouseDir = where.warehouseDir(outDir);
    err.println("study: seed " + theSeed + ", design " + design + ", side a " + plan.a().describe() + ", side b "
        + plan.b().describe() + (plan.cpus() == null ? "" : ", CPU sets " + plan.cpus().one() + " | "
        + plan.cpus().two() + " (" + plan.cpus().swapInWords() + ")"));
    err.flush();
    long startNs = System.nanoTime();
    AbStudy.Outcome outcome = study.run(() -> sparkOptions.session("study-ab"));
    PrintWriter stdout = spec.commandLine().getOut();
    if (outcome.cutShort() != null) {
      stdout.println(outcome.cutShort().sentence());
    }
    stdout.println("Study " + outcome.studyId() + ": " + outcome.runDirs().size() + " runs in " + outDir.resolve("runs"));
    stdout.println("Comparison:   " + outcome.compareDir().resolve(CompareFiles.HTML) + " (b against a; also "
        + CompareFiles.JSON + ", " + CompareFiles.MARKDOWN + ")");
    if (outcome.aaDir() != null) {
      stdout.println("a/a control:  " + outcome.aaDir().resolve(CompareFiles.HTML) + " (must come out 1)");
    }
    stdout.println("Warehouse:    " + warehouseDir);
    stdout.println("Design:       " + outDir.resolve(AbStudy.STUDY_FILE));
    stdout.printf(Locale.ROOT, "%s in %.0f s.%n", outcome.cutShort() == null ? "Done" : "Cut short",
        (System.nanoTime() - startNs) / 1e9);
    stdout.flush();
    return StudyFile.exitCode(outcome.cutShort(), "study ab", err);
  }

  /** The connections per side of an interleaved or sequential study, where a side has the machine. */
  static final int UNPAIRED_CLIENTS = 4;

  /**
   * {@code --clients}, or its default. A duet's: a side's CPUs. With more, a side's clients and
   * backends queue for its CPUs and where a query waits (before it is sent, unmeasured, or after)
   * is the scheduler's choice: on one CPU, point-select's median with 4 clients flipped between
   * two regimes from round to round at the same throughput (docs/designs.md).
   */
  static int clients(Integer given, DuetCpus cpus) {
    if (given != null) {
      return given;
    }
    return cpus == null ? UNPAIRED_CLIENTS : Math.min(cpus.one().size(), cpus.two().size());
  }

  AbStudyPlan plan(long theSeed) {
    if (aJdbcUrl == null && aUser != null || bJdbcUrl == null && bUser != null) {
      throw new BadInputException("--a-user and --b-user go with --a-jdbc-url and --b-jdbc-url");
    }
    var parsed = spec.commandLine().getParseResult();
    if (aJdbcUrl != null && (parsed.hasMatchedOption("--a-pg") || !aSettings.isEmpty())
        || bJdbcUrl != null && (parsed.hasMatchedOption("--b-pg") || !bSettings.isEmpty())) {
      throw new BadInputException("a side is an embedded server (--a-pg, --a-setting) or a server by URL "
          + "(--a-jdbc-url), not both");
    }
    Path dir = where.pgDir();
    AbStudyPlan.Side a = new AbStudyPlan.Side(aJdbcUrl != null ? new LoadgenConfig.External(aJdbcUrl, aUser)
        : new LoadgenConfig.Embedded(aMajor, aSettings, dir));
    AbStudyPlan.Side b = new AbStudyPlan.Side(bJdbcUrl != null ? new LoadgenConfig.External(bJdbcUrl, bUser)
        : new LoadgenConfig.Embedded(bMajor, bSettings, dir));
    AbStudyPlan.Side aaSecond = aJdbcUrl == null ? a
        : aaJdbcUrl == null ? null : new AbStudyPlan.Side(new LoadgenConfig.External(aaJdbcUrl, aUser));
    DuetCpus cpus = duet.cpus(design == Design.DUET);
    boolean byKind = readDuration != null && writeDuration != null;
    AbStudyPlan.Workload workload = new AbStudyPlan.Workload(steps, tables, tableSize, clients(clients, cpus),
        byKind ? null : duration, readDuration, writeDuration, warmup, betweenSteps);
    try {
      SequentialLooks looks = untilDecided.looks(design, StatisticsSettings.DEFAULTS);
      return new AbStudyPlan(a, b, aaSecond, design, looks == null ? rounds : looks.maxRounds(), duet.aaRounds(),
          theSeed, workload, cpus, looks);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }
}
