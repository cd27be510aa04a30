package dev.benchlake.loadgen;

import dev.benchlake.core.TextTable;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.LabelOptions;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.loadgen.run.ArrivalSchedule;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.loadgen.db.EmbeddedServer;
import dev.benchlake.loadgen.workload.RandType;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake loadgen}: builds a {@link LoadgenConfig} from options and runs it. */
@Command(name = "loadgen", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    sortOptions = false, defaultValueProvider = LoadgenDefaults.class,
    description = {
      "Runs a load against PostgreSQL and records every task (tasks.csv + manifest.json in --out).",
      "Target: an embedded PostgreSQL (default, --pg-version 11..17) or any server (--jdbc-url, --user; the "
          + "password from PGPASSWORD, PGPASSFILE or ~/.pgpass, never from the command line).",
      "Modes: closed loop (--clients), open loop (--rate), burst (--burst with --pool)."
    },
    footer = {"", "Examples:",
      "  benchlake loadgen --workload select-update --tasks 5000 --burst 5000 --pool 100 --out runs/su1",
      "  benchlake loadgen --workload sysbench --steps point-select,read-only --clients 8 --duration 60s "
          + "--warmup 10s --out runs/sb1",
      "  benchlake loadgen --workload sysbench --steps mytools --tables 4 --table-size 100000 "
          + "--read-duration 60s --write-duration 90s --warmup 5s --out runs/mytools1",
      "    (48 steps: 38 timed reads x 65 s and 9 writes x 95 s, about 56 minutes; scan is one pass)",
      "  benchlake loadgen --jdbc-url jdbc:postgresql://db:5432/bench --user bench --script tx.sql@3 "
          + "--script report.sql@1 --rate 200 --duration 5m --out runs/mix1",
      "", "Exit codes: 0 run complete, 1 run interrupted or failed, 2 bad usage or bad input. --serve runs until "
          + "SIGTERM or Ctrl-C, stops the server, says so in one line and exits as a process that signal ends: 143 "
          + "(SIGTERM) or 130 (Ctrl-C)."})
public final class LoadgenCommand implements Callable<Integer>, Validated {
  @Spec
  CommandSpec spec;

  // --- target: the embedded server's options or another server's, never both (picocli checks).
  @ArgGroup(exclusive = true)
  Target target;

  static final class Target {
    @ArgGroup(exclusive = false, heading = "%nTarget: the embedded PostgreSQL (default)%n")
    EmbeddedTarget embedded;

    @ArgGroup(exclusive = false, heading = "%nTarget: any PostgreSQL server instead%n")
    ExternalTarget external;
  }

  static final class EmbeddedTarget {
    @Option(names = "--pg-version", paramLabel = "MAJOR",
        description = "Embedded PostgreSQL major version (default: ${DEFAULT-VALUE}).")
    int pgVersion = LoadgenDefaults.PG_MAJOR;

    @Option(names = "--pg-setting", paramLabel = "NAME=VALUE",
        description = "Embedded server setting (repeatable); overrides loadgen's durable defaults (fsync=on, "
            + "synchronous_commit=on, max_connections sized to the load).")
    Map<String, String> pgSettings = new LinkedHashMap<>();

    @Option(names = "--pg-dir", paramLabel = "DIR",
        description = "Where the embedded cluster's temporary directory goes (default: the system temp directory).")
    Path pgDir;
  }

  static final class ExternalTarget {
    @Option(names = "--jdbc-url", paramLabel = "URL", required = true,
        description = "Any PostgreSQL server instead of the embedded one.")
    String jdbcUrl;

    @Option(names = "--user", paramLabel = "USER", description = "User for --jdbc-url (default: the URL's or the OS user).")
    String user;
  }

  // --- workload
  @Option(names = "--workload", paramLabel = "NAME",
      description = "select-update, sysbench (with --steps), script (with --script), or one sysbench step: "
          + "point-select, simple-range, sum-range, order-range, distinct-range, random-points, random-ranges, "
          + "update-index, update-non-index, insert, delete, read-only, read-write, write-only.")
  String workload;

  @Option(names = "--steps", split = ",", paramLabel = "STEP",
      description = "sysbench steps to run one after another on the same data, each with its own warm-up: the "
          + "steps above, mytools (the PostgreSQL 11-16 version study's sequence of steps named "
          + "<testType>_range=<R>; mytools-2023: the 43 of them it ran in 2023), or any of those by name, e.g. point-query_range=100,scan_range=100.")
  List<String> steps = new ArrayList<>();

  @Option(names = "--scale", description = "select-update: rows = 10 x 100000 x SCALE (default: ${DEFAULT-VALUE}).")
  double scale;

  @Option(names = "--think-time", paramLabel = "MIN..MAX",
      description = "select-update: pause between the SELECT and the UPDATE, uniform in [MIN, MAX], holding the "
          + "connection (the 2016 study used 50ms..250ms; default: none).")
  String thinkTime;

  @Option(names = "--tables", description = "sysbench: number of sbtest tables (default: ${DEFAULT-VALUE}).")
  int tables;

  @Option(names = "--table-size", description = "sysbench: rows per table (default: ${DEFAULT-VALUE}).")
  int tableSize;

  @Option(names = "--range-size", description = "sysbench: ids per range query (default: ${DEFAULT-VALUE}).")
  int rangeSize;

  @Option(names = "--rand-type", description = "sysbench: id distribution, uniform, special (sysbench 1.0's "
      + "default hot spot) or zipfian (exponent 0.8) (default: ${DEFAULT-VALUE}).")
  RandType randType;

  @Option(names = "--script", paramLabel = "FILE[@WEIGHT]",
      description = "Your own transaction (pgbench script syntax: \\set, :variables); repeatable, mixed by weight.")
  List<String> scripts = new ArrayList<>();

  @Option(names = {"-D", "--define"}, paramLabel = "NAME=INTEGER", description = "A script variable.")
  Map<String, Long> defines = new LinkedHashMap<>();

  @Option(names = "--between-steps", paramLabel = "WHAT", converter = BetweenSteps.Converter.class,
      description = "What runs on the workload's tables between steps, after one step's table health snapshot and "
          + "before the next one's: none (leave maintenance to autovacuum, as the PostgreSQL 11..17 study did), "
          + "analyze, vacuum-analyze or checkpoint (default: none).")
  BetweenSteps betweenSteps = BetweenSteps.NONE;

  @Option(names = "--skip-load", description = "Use the tables already in the database (e.g. from sysbench prepare).")
  boolean skipLoad;

  // --- mode
  @Option(names = "--clients", description = "Connections, closed or open loop (default: ${DEFAULT-VALUE}).")
  int clients;

  // The open loop's --rate and the burst's --burst are different modes: one or neither (picocli checks).
  @ArgGroup(exclusive = true)
  ModeChoice modeChoice;

  static final class ModeChoice {
    @Option(names = "--rate", paramLabel = "TASKS_PER_S", description = "Open loop: task arrivals per second.")
    Double rate;

    @Option(names = "--burst", paramLabel = "N", description = "Burst: N tasks submitted at once to a pool (--pool).")
    Integer burst;
  }

  @Option(names = "--schedule", description = "Open loop arrivals: poisson or fixed (default: ${DEFAULT-VALUE}).")
  ArrivalSchedule.Kind schedule;

  @Option(names = "--pool", paramLabel = "P", description = "Burst: connections in the pool.")
  Integer pool;

  @Option(names = "--pool-timeout", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "Burst: longest wait for a pooled connection before the task fails (default: "
          + "${DEFAULT-VALUE}).")
  Duration poolTimeout;

  @Option(names = "--tasks", paramLabel = "N", description = "Measured tasks per step.")
  Long tasks;

  @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "Measured time per step, e.g. 60s.")
  Duration duration;

  @Mixin
  StepTimes times = new StepTimes();

  @Option(names = "--random-seed", paramLabel = "N", description = "Seed of every random choice (default: random; "
      + "recorded in the manifest).")
  Long randomSeed;

  // --- output
  @Option(names = "--out", paramLabel = "DIR", description = "The run directory to create (new or empty).")
  Path out;

  @Option(names = "--run-id", paramLabel = "ID", description = "The run's id (default: a random UUID).")
  String runId;

  @Mixin
  LabelOptions labelOptions;

  @Option(names = "--quiet", description = "No progress output.")
  boolean quiet;

  @Option(names = "--profile", paramLabel = "HZ", arity = "0..1", fallbackValue = "" + StepProfiler.DEFAULT_HZ,
      description = "Embedded server: record a CPU profile of its processes over each step's measured window with "
          + "perf record -g, a sample per 1/HZ s of each process's CPU time (default HZ: " + StepProfiler.DEFAULT_HZ
          + "), kept as profiles/STEP.perf.data "
          + "with its top symbols in profiles/STEP.txt and the manifest. Without perf, or where the kernel "
          + "refuses it, the run goes on and says why.")
  Integer profileHz;

  @Option(names = "--handicap-stretch", paramLabel = "SHARE", hidden = true,
      description = "Calibration only (benchlake calibrate): after each task, spin until SHARE × its time has passed, "
          + "so that every latency is (1 + SHARE) × its own; the run is labelled handicap_stretch=SHARE.")
  double handicapStretch;

  @Option(names = "--barrier", paramLabel = "stdio", hidden = true,
      description = "Wait before each step for the process that started this one: print 'benchlake-barrier ready "
          + "INDEX STEP', read 'go INDEX EPOCH_NS' on stdin and start the step at that instant (a duet's sides; "
          + "see StdioBarrier).")
  String barrier;

  @Option(names = "--session", paramLabel = "stdio", hidden = true,
      description = "Run one run per line read on stdin ('run' and loadgen's options as a JSON array), each behind "
          + "the stdin barrier, in this one JVM (a duet's side; see SideSession).")
  String sessionOn;

  /** The stdin of the session this run belongs to, which carries its barrier; null: a run of its own. */
  StdioBarrier.Lines sessionStdin;

  @Option(names = "--tasks-file", paramLabel = "NAME", defaultValue = "tasks.csv",
      description = "tasks.csv, or tasks.csv.gz: the same lines gzip-compressed, flushed as often (about "
          + "a fifth of the size; ingest reads either) (default: ${DEFAULT-VALUE}).")
  String tasksFile;

  @Option(names = "--no-record", hidden = true,
      description = "Count tasks but write nothing (measures loadgen's own recording overhead).")
  boolean noRecord;

  // --- faults
  @Option(names = "--connect-timeout", converter = DurationConverter.Positive.class,
      description = "Limit on connecting and logging in (default: ${DEFAULT-VALUE}).")
  Duration connectTimeout;

  @Option(names = "--query-timeout", converter = DurationConverter.Positive.class,
      description = "Limit on any one wait for the server; a task that exceeds it fails (default: ${DEFAULT-VALUE}).")
  Duration queryTimeout;

  @Option(names = "--max-outage", converter = DurationConverter.Positive.class,
      description = "End the run (interrupted) when no task succeeded for this long while tasks failed "
          + "(default: ${DEFAULT-VALUE}).")
  Duration maxOutage;

  @Option(names = "--serve", description = "Only start the embedded server, print how to connect (key=value "
      + "lines on stdout) and keep it running until Ctrl-C or SIGTERM: for pgbench, sysbench, psql.")
  boolean serve;

  /** The run {@link #validate} checked (null for --serve and --session). */
  private LoadgenConfig config;

  /**
   * Every option before anything starts or is written: the run's whole config as {@link Loadgen#run}
   * checks it first ({@link Loadgen#validate}: workload, steps, mode, counts, durations, --out, the
   * target's form, an embedded server's binaries, settings and --pg-dir); for --serve the embedded
   * server's options; for --session the option alone.
   */
  @Override
  public void validate(Preflight before) {
    if (serve) {
      EmbeddedTarget embedded = embedded();
      Loadgen.validate(new LoadgenConfig.Embedded(embedded.pgVersion, embedded.pgSettings, embedded.pgDir));
    } else if (sessionOn != null) {
      if (!sessionOn.equals(SideSession.STDIO)) {
        throw new BadInputException("--session: only 'stdio' is known, not '" + sessionOn + "'");
      }
      if (spec.commandLine().getParseResult().matchedOptions().size() != 1) {
        throw new BadInputException("--session stdio takes no other option: each run's come on stdin");
      }
    } else {
      config = config();
      Loadgen.validate(config);
    }
  }

  @Override
  public List<Path> writes() {
    return Validated.local(out);
  }

  @Override
  public Integer call() {
    validate(Preflight.ALONE);
    if (serve) {
      return serve();
    }
    if (sessionOn != null) {
      return session();
    }
    ProgressListener status = new StatusLine(System.console() != null ? System.err : null, quiet);
    RunResult result = Loadgen.run(config, status);
    printSummary(result, spec.commandLine().getOut());
    if (result.status() != RunStatus.COMPLETE) {
      spec.commandLine().getErr().println("benchlake loadgen: run " + result.status().json() + ": "
          + result.manifest().error());
      spec.commandLine().getErr().flush();
      return ExitCode.FAILURE;
    }
    return ExitCode.OK;
  }

  LoadgenConfig config() {
    if (noRecord && out != null) {
      throw new BadInputException("--no-record writes nothing: leave out --out");
    }
    ExternalTarget external = target == null ? null : target.external;
    LoadgenConfig.Target runTarget = external != null
        ? new LoadgenConfig.External(external.jdbcUrl, external.user)
        : new LoadgenConfig.Embedded(embedded().pgVersion, embedded().pgSettings, embedded().pgDir);
    Duration[] think = thinkTime == null ? new Duration[] {Duration.ZERO, Duration.ZERO} : parseRange(thinkTime);
    return LoadgenConfig.builder()
        .target(runTarget)
        .workload(workload == null && !scripts.isEmpty() ? "script" : workload)
        .steps(steps)
        .scale(scale)
        .thinkTime(think[0], think[1])
        .tables(tables)
        .tableSize(tableSize)
        .rangeSize(rangeSize)
        .randType(randType)
        .scripts(scripts)
        .defines(defines)
        .skipLoad(skipLoad)
        .mode(mode())
        .tasks(tasks)
        .duration(duration)
        .readDuration(times.readDuration())
        .writeDuration(times.writeDuration())
        .warmup(times.warmup())
        .randomSeed(randomSeed)
        .outDir(out)
        .runId(runId)
        .labels(labelOptions.labels())
        .recordTasks(!noRecord)
        .tasksFile(tasksFile)
        .connectTimeout(connectTimeout)
        .queryTimeout(queryTimeout)
        .maxOutage(maxOutage)
        .betweenSteps(betweenSteps)
        .stepBarrier(stepBarrier())
        .handicapStretch(handicapStretch)
        .profileHz(profileHz)
        .build();
  }

  private StepBarrier stepBarrier() {
    if (barrier == null) {
      return StepBarrier.NONE;
    }
    if (!barrier.equals("stdio")) {
      throw new BadInputException("--barrier: only 'stdio' is known, not '" + barrier + "'");
    }
    if (sessionStdin != null) {
      return new StdioBarrier(sessionStdin, spec.commandLine().getOut());
    }
    return new StdioBarrier(stdin(), spec.commandLine().getOut());
  }

  private static java.io.BufferedReader stdin() {
    return new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
  }

  private int session() {
    try {
      return new SideSession(stdin(), spec.commandLine().getOut(), spec.commandLine().getErr(), (args, barrierIn) -> {
        LoadgenCommand run = new LoadgenCommand();
        run.sessionStdin = barrierIn;
        return Cli.commandLine(run).execute(args);
      }).serve();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("reading the session's stdin", e);
    }
  }


  /** The embedded server's options: as given, or all defaults when none was. */
  private EmbeddedTarget embedded() {
    return target == null || target.embedded == null ? new EmbeddedTarget() : target.embedded;
  }

  private LoadgenConfig.Mode mode() {
    var parsed = spec.commandLine().getParseResult();
    Double rate = modeChoice == null ? null : modeChoice.rate;
    Integer burst = modeChoice == null ? null : modeChoice.burst;
    if (burst == null && (pool != null || parsed.hasMatchedOption("--pool-timeout"))) {
      throw new BadInputException("--pool and --pool-timeout go with --burst");
    }
    if (rate == null && parsed.hasMatchedOption("--schedule")) {
      throw new BadInputException("--schedule goes with --rate (open loop)");
    }
    if (burst != null) {
      if (parsed.hasMatchedOption("--clients")) {
        throw new BadInputException("--burst uses --pool connections, not --clients");
      }
      if (pool == null) {
        throw new BadInputException("--burst needs --pool P (connections in the pool)");
      }
      return LoadgenConfig.Mode.burst(burst, pool, poolTimeout);
    }
    if (rate != null) {
      return LoadgenConfig.Mode.open(clients, rate, schedule);
    }
    return LoadgenConfig.Mode.closed(clients);
  }

  /** {@code MIN..MAX} or a single duration. */
  static Duration[] parseRange(String text) {
    int dots = text.indexOf("..");
    try {
      if (dots < 0) {
        Duration d = DurationConverter.parse(text);
        return new Duration[] {d, d};
      }
      return new Duration[] {DurationConverter.parse(text.substring(0, dots)), DurationConverter.parse(text.substring(dots + 2))};
    } catch (RuntimeException e) {
      throw new BadInputException("--think-time '" + text + "': " + e.getMessage(), e);
    }
  }

  private int serve() {
    int connections = modeChoice != null && modeChoice.burst != null && pool != null ? pool : clients;
    EmbeddedTarget embedded = embedded();
    EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(embedded.pgVersion, embedded.pgSettings,
        connections, embedded.pgDir));
    CountDownLatch stopped = new CountDownLatch(1);
    PrintWriter err = spec.commandLine().getErr();
    ShutdownActions.register("stop the embedded server", () -> {
      server.close();
      // The one line a signal gets (its exit code is the JVM's: 143 for SIGTERM, 130 for Ctrl-C).
      err.println("embedded PostgreSQL " + server.binariesVersion() + " on port " + server.port() + " stopped");
      err.flush();
      stopped.countDown();
    });
    PrintWriter out = spec.commandLine().getOut();
    out.println("jdbc_url=" + server.jdbcUrl());
    out.println("host=localhost");
    out.println("port=" + server.port());
    out.println("user=" + server.user());
    out.println("database=postgres");
    out.println("version=" + server.binariesVersion());
    out.flush();
    spec.commandLine().getErr().println("embedded PostgreSQL " + server.binariesVersion() + " is running on port "
        + server.port() + " (psql -h localhost -p " + server.port() + " -U postgres); Ctrl-C or SIGTERM stops it");
    spec.commandLine().getErr().flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCode.OK;
  }

  static void printSummary(RunResult result, PrintWriter out) {
    out.println("run " + result.manifest().runId() + ": " + result.status().json()
        + (result.runDir() == null ? " (not recorded)" : " in " + result.runDir()));
    TextTable steps = new TextTable("step", "tasks", "ok", "errors", "ok/s", "p50 ms", "p95 ms", "p99 ms", "max ms");
    for (StepResult s : result.steps()) {
      steps.row(s.step(), s.attempts(), s.ok(), s.errors(), String.format(Locale.ROOT, "%.1f", s.okPerSecond()),
          ms(s.p50Ns()), ms(s.p95Ns()), ms(s.p99Ns()), ms(s.maxNs()));
    }
    out.print(steps.render());
    Map<String, Long> errors = new TreeMap<>();
    Map<String, String> examples = new TreeMap<>();
    for (StepResult s : result.steps()) {
      s.errorsBySqlstate().forEach((k, v) -> errors.merge(k, v, Long::sum));
      s.exampleErrors().forEach(examples::putIfAbsent);
    }
    if (!errors.isEmpty()) {
      out.println();
      out.println("errors by SQLSTATE:");
      TextTable table = new TextTable("sqlstate", "tasks", "example");
      errors.forEach((k, v) -> table.row(k, v, examples.getOrDefault(k, "")));
      out.print(table.render());
    }
    out.println("(latency: successful measured tasks, from each task's intended start; HdrHistogram, within 1 %)");
    if (result.runDir() != null && java.nio.file.Files.isDirectory(result.runDir())) {
      out.println("wrote " + dev.benchlake.core.DiskUsage.human(dev.benchlake.core.DiskUsage.bytes(result.runDir())) + ": "
          + dev.benchlake.core.DiskUsage.files(result.runDir()));
    }
    out.flush();
  }

  private static String ms(long ns) {
    return ns <= 0 ? "-" : String.format(Locale.ROOT, "%.2f", ns / 1e6);
  }
}
