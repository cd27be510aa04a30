package dev.benchlake.loadgen;

import dev.benchlake.core.BenchlakeVersion;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.CpuAffinity;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.StepMetric;
import dev.benchlake.core.raw.StepWindow;
import dev.benchlake.loadgen.LoadgenConfig.ModeKind;
import dev.benchlake.loadgen.run.BurstDriver;
import dev.benchlake.loadgen.run.JitQuiet;
import dev.benchlake.loadgen.run.RunClock;
import dev.benchlake.loadgen.run.RunControl;
import dev.benchlake.loadgen.run.StepPlan;
import dev.benchlake.loadgen.run.StepRun;
import dev.benchlake.loadgen.run.StepStats;
import dev.benchlake.loadgen.db.Database;
import dev.benchlake.loadgen.db.EmbeddedServer;
import dev.benchlake.loadgen.db.JdbcTarget;
import dev.benchlake.loadgen.db.ServerInfo;
import dev.benchlake.loadgen.db.SqlErrors;
import dev.benchlake.loadgen.workload.Step;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a load: the Java API behind {@code benchlake loadgen}.
 *
 * <pre>
 *   LoadgenConfig config = LoadgenConfig.builder().workload("point-select")
 *       .mode(LoadgenConfig.Mode.closed(8)).duration(Duration.ofSeconds(30)).outDir(dir).build();
 *   RunResult result = Loadgen.run(config, ProgressListener.NONE);
 * </pre>
 *
 * Several runs can share one embedded server (starting one costs seconds):
 * {@code try (EmbeddedServer server = Loadgen.startEmbedded(config)) { Loadgen.run(config, listener, server); … }}.
 *
 * <p>Order of a run: validate everything ({@link dev.benchlake.core.cli.BadInputException} before
 * anything is started or written), start or reuse the server, connect once (a wrong URL or
 * password fails here, still before anything is written), load the data, create the run directory
 * (manifest {@code running}), run the steps, rewrite the manifest ({@code complete}, or
 * {@code interrupted} when stopped by a signal, a failed writer or a long outage).
 */
public final class Loadgen {
  private static final Logger LOG = LoggerFactory.getLogger(Loadgen.class);
  /** The tool name in manifests. */
  public static final String TOOL = "benchlake-loadgen";
  private static final long TICK_NS = TimeUnit.SECONDS.toNanos(1);
  /** A wait for the JIT ({@link JitQuiet}) longer than its quiet period plus polls: said in the run's log. */
  private static final long REPORTED_JIT_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(100);
  /** How long a signal waits for the run to close its files before closing them itself. */
  private static final long SHUTDOWN_GRACE_S = 30;

  private Loadgen() {}

  /** {@code --profile}'s rate when none is given: samples per second of a server process's CPU time. */
  public static final int PROFILE_DEFAULT_HZ = StepProfiler.DEFAULT_HZ;

  /**
   * Why {@code --profile} can profile no step on this machine (perf absent, or the kernel refuses it
   * to this user), or null: for a command that plans many runs, to say once before the first; the
   * runs of this JVM then do not say it again.
   */
  public static String whyNoProfiles() {
    return StepProfiler.refusedHere();
  }

  /**
   * Checks {@code config} as {@link #run} does first, without starting or writing anything: for
   * commands that plan several runs and must refuse bad input before the first.
   *
   * @throws BadInputException naming what is wrong
   */
  public static void validate(LoadgenConfig config) {
    RunPlan.of(config);
  }

  /**
   * Checks an embedded server's options as {@link #run} does, without starting it: for
   * {@code loadgen --serve}, which starts only the server.
   *
   * @throws BadInputException naming what is wrong
   */
  public static void validate(LoadgenConfig.Embedded server) {
    RunPlan.checkEmbedded(server);
  }

  /** Runs {@code config}, starting and stopping an embedded server if it targets one. */
  public static RunResult run(LoadgenConfig config, ProgressListener listener) {
    return run(config, listener, null);
  }

  /**
   * Runs {@code config} on {@code server} when it targets an embedded server (the caller keeps
   * and closes the server; its major must match the config's).
   */
  public static RunResult run(LoadgenConfig config, ProgressListener listener, EmbeddedServer server) {
    RunPlan plan = RunPlan.of(config);
    long seed = config.randomSeed() != null ? config.randomSeed() : new SplittableRandom().nextLong();
    // Decided before connecting: every connection of the run carries it in its application_name.
    String runId = config.runId() != null ? config.runId() : UUID.randomUUID().toString();
    EmbeddedServer owned = null;
    ShutdownActions.Action stopServer = null;
    try {
      JdbcTarget target;
      boolean embedded = config.target() instanceof LoadgenConfig.Embedded;
      if (config.target() instanceof LoadgenConfig.Embedded e) {
        if (server == null) {
          listener.onMessage("starting embedded PostgreSQL " + e.major());
          owned = startEmbedded(config);
          stopServer = ShutdownActions.register("stop the embedded server", owned::close);
          server = owned;
        } else if (server.major() != e.major()) {
          throw new BadInputException("the shared embedded server is PostgreSQL " + server.major()
              + ", the run wants " + e.major());
        }
        target = JdbcTarget.trusted(server.jdbcUrl(), server.user());
      } else {
        LoadgenConfig.External x = (LoadgenConfig.External) config.target();
        target = JdbcTarget.of(x.jdbcUrl(), x.user(), config.environment());
      }
      Database database = new Database(target, config.connectTimeout(), config.queryTimeout(), runId);
      SetUp setUp = setUp(plan, database, seed, server, listener);
      return execute(plan, runId, seed, database, setUp, embedded, listener);
    } finally {
      if (owned != null) {
        stopServer.close();
        owned.close();
      }
    }
  }

  /** Starts the embedded server {@code config} targets, sized for its load. */
  public static EmbeddedServer startEmbedded(LoadgenConfig config) {
    if (!(config.target() instanceof LoadgenConfig.Embedded e)) {
      throw new IllegalArgumentException("the config targets " + config.target() + ", not an embedded server");
    }
    return EmbeddedServer.start(new EmbeddedServer.Options(e.major(), e.settings(), config.mode().connections(),
        e.parentDir()));
  }

  /** The server's identity and where the client and the server may run, as the run found them. */
  private record SetUp(ServerInfo info, CpuAffinity affinity) {}

  /**
   * Connects (user errors become BadInputException), reads the server's identity and the CPU sets
   * ({@code embedded}: the server is ours, so its postmaster's and a backend's are read too), loads
   * or checks the data.
   */
  private static SetUp setUp(RunPlan plan, Database database, long seed, EmbeddedServer embedded,
      ProgressListener listener) {
    try (Connection setup = database.connectForSetup()) {
      ServerInfo info = ServerInfo.query(setup);
      CpuAffinity affinity = Affinities.read(setup, embedded);
      listener.onMessage("connected to " + database.target() + ": " + info.version());
      long startNs = System.nanoTime();
      if (plan.config().skipLoad()) {
        plan.workload().verifyLoaded(setup);
      } else {
        plan.workload().load(setup, seed, listener::onMessage);
        LOG.info("data loaded in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
      }
      return new SetUp(info, affinity);
    } catch (SQLException e) {
      String message = "setting up the " + plan.workload().name() + " workload failed: "
          + database.target().scrub(SqlErrors.message(e)) + sqlStateSuffix(e);
      if (e.getSQLState() != null && e.getSQLState().startsWith("42")) {
        throw new BadInputException(message, e);
      }
      throw new IllegalStateException(message, e);
    }
  }

  private static String sqlStateSuffix(SQLException e) {
    return e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")";
  }

  private static RunResult execute(RunPlan plan, String runId, long seed, Database database, SetUp setUp,
      boolean embedded, ProgressListener listener) {
    LoadgenConfig config = plan.config();
    ServerInfo info = setUp.info();
    RunClock clock = RunClock.startNow();
    RunManifest running = manifest(plan, runId, seed, database, info, embedded, clock, setUp.affinity());
    RunOutput output;
    try {
      output = config.recordTasks() ? RunOutput.create(config.outDir(), running, config.tasksFile()) : RunOutput.discarding(running);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the run directory " + config.outDir(), e);
    }
    RunControl control = new RunControl();
    List<StepStats> allStats = new ArrayList<>();
    CountDownLatch finished = new CountDownLatch(1);
    ShutdownActions.Action onSignal = ShutdownActions.register("finish the run", () -> {
      control.requestStop("interrupted by a signal");
      try {
        if (!finished.await(SHUTDOWN_GRACE_S, TimeUnit.SECONDS)) {
          finish(output, RunStatus.INTERRUPTED, "interrupted by a signal", allStats);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    List<StepResult> results = new ArrayList<>();
    List<StepWindow> windows = new ArrayList<>();
    List<StepMetric> stepMetrics = new ArrayList<>();
    StepPlanRecorder plans = new StepPlanRecorder(database, info.major(), seed, config.mode().connections());
    try (StepHealthRecorder health = StepHealthRecorder.open(database, info.major(), plan.workload().tables(),
        config.betweenSteps());
        StepResourceRecorder resources = StepResourceRecorder.open(database, info.major(), embedded,
            config.profileHz() == null ? null : StepProfiler.open(config.profileHz(), output.dir()))) {
      List<Step> steps = plan.workload().steps();
      for (int i = 0; i < steps.size() && !control.stopRequested(); i++) {
        StepStats stats = new StepStats();
        synchronized (allStats) {
          allStats.add(stats);
        }
        health.beforeStep();
        resources.beforeStep();
        Step step = steps.get(i);
        int index = i;
        boolean gated = config.stepBarrier() != StepBarrier.NONE;
        StepRun stepRun = gated
            ? StepRun.gated(step, i, plan.stepPlan(step), clock, control, stats, output.sink(), database, seed,
                plan.driver().startParties())
            : new StepRun(step, i, plan.stepPlan(step), clock, control, stats, output.sink(), database, seed);
        boolean[] shared = new boolean[1];
        runStep(plan, stepRun, stats, control, output, listener, driver -> {
          if (gated) {
            // Once its connections are made (after the before-snapshot): what a side takes to get
            // here never moves the shared window.
            long goNs = awaitSetUpAndStart(config.stepBarrier(), stepRun, driver, index, clock, control, listener);
            shared[0] = goNs != StepBarrier.NOW;
            stepRun.start(shared[0] ? goNs : clock.now());
            if (control.stopRequested()) {
              return; // its workers end without a task: the step did not run
            }
          }
          listener.onStepStart(step.name(), index, steps.size());
          resources.windowStarts(step.name(), stepRun.warmupEndNs() - clock.now());
          windows.add(window(stepRun, clock, shared[0]));
          output.steps(windows, stepMetrics);
        });
        resources.windowEnds();
        output.stepResources(resources.afterStep(step, stats.measuredOk() + stats.measuredErrors()));
        if (control.stopRequested() && stats.attempts() == 0) {
          break;
        }
        StepResult result = result(steps.get(i), stepRun, stats, shared[0]);
        results.add(result);
        stepMetric(steps.get(i), result).ifPresent(stepMetrics::add);
        output.steps(windows, stepMetrics);
        listener.onStepEnd(result);
        output.stepPlans(control.stopRequested() ? null : plans.explain(steps.get(i)));
        // The after-snapshot first: it shows the tables as the step left them, before the study's vacuum.
        health.afterStep(steps.get(i), resources.statsFileAfter());
        output.stepHealth(health.steps());
        if (!control.stopRequested()) {
          afterTasks(steps.get(i), database, listener);
        }
      }
      RunStatus status = control.stopRequested() ? RunStatus.INTERRUPTED : RunStatus.COMPLETE;
      RunManifest done = finish(output, status, control.stopReason(), allStats);
      return new RunResult(output.dir(), done, results);
    } catch (RuntimeException | Error e) {
      finish(output, RunStatus.INTERRUPTED, "loadgen failed: " + SqlErrors.message(e), allStats);
      throw e;
    } finally {
      finished.countDown();
      onSignal.close();
    }
  }

  /**
   * Waits until the step's driver is set up (its connections made, a burst's pool filled) and this
   * JVM's JIT compilers are quiet ({@link JitQuiet}), then behind the barrier.
   *
   * @return the instant the barrier gave, on the run's clock, or {@link StepBarrier#NOW}; the run
   *     is stopped instead when the barrier's holder went away or the wait was interrupted
   */
  private static long awaitSetUpAndStart(StepBarrier barrier, StepRun stepRun, Thread driver, int index,
      RunClock clock, RunControl control, ProgressListener listener) {
    String step = stepRun.step().name();
    long goEpochNs;
    try {
      while (!stepRun.awaitSetUp(100)) {
        if (!driver.isAlive() || control.stopRequested()) {
          return StepBarrier.NOW;
        }
      }
      long jitNs = JitQuiet.await();
      if (jitNs >= REPORTED_JIT_WAIT_NS) {
        listener.onMessage(String.format(Locale.ROOT, "the JIT compilers were busy: %d ms before %s was ready",
            jitNs / 1_000_000, step));
      }
      goEpochNs = barrier.awaitStart(index, step);
    } catch (java.io.IOException e) {
      control.requestStop(e.getMessage());
      return StepBarrier.NOW;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      control.requestStop("interrupted while waiting to start " + step);
      return StepBarrier.NOW;
    }
    return goEpochNs == StepBarrier.NOW ? StepBarrier.NOW : goEpochNs - clock.originEpochNs();
  }

  /** The step's window as planned, in ns since the epoch. */
  private static StepWindow window(StepRun run, RunClock clock, boolean shared) {
    long origin = clock.originEpochNs();
    return new StepWindow(run.step().name(), origin + run.startNs(), origin + run.warmupEndNs(),
        run.plan().timed() ? origin + run.endNs() : null, shared);
  }

  /**
   * A step counted in rows rather than tasks (scan) gets its figure as the study counts it: rows
   * read per second over its measurement, the step's {@code qps}.
   */
  private static java.util.Optional<StepMetric> stepMetric(Step step, StepResult result) {
    if (step.rowsPerTask().isEmpty() || result.measuredS() <= 0) {
      return java.util.Optional.empty();
    }
    double rowsPerS = result.measuredOk() * (double) step.rowsPerTask().getAsLong() / result.measuredS();
    return java.util.Optional.of(new StepMetric(step.name(), "qps", rowsPerS, "1/s",
        "rows scanned per second: each client scanned every table once; rows = successful scans x table_size,"
            + " over the time from the first scan's start to the last one's end"));
  }

  /** The step's own maintenance after its tasks (e.g. a vacuum), on a connection of its own. */
  private static void afterTasks(Step step, Database database, ProgressListener listener) {
    try (Connection c = database.connectForSetup()) {
      step.afterTasks(c, listener::onMessage);
    } catch (SQLException e) {
      throw new IllegalStateException("after the " + step.name() + " step: " + database.target().scrub(
          SqlErrors.message(e)) + sqlStateSuffix(e), e);
    }
  }

  /**
   * Runs one step's driver on its own thread and reports progress from this one; {@code started}
   * runs on this thread once the driver does (a gated step is started there).
   */
  private static void runStep(RunPlan plan, StepRun stepRun, StepStats stats, RunControl control, RunOutput output,
      ProgressListener listener, java.util.function.Consumer<Thread> started) {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread driver = new Thread(() -> {
      try {
        plan.driver().run(stepRun);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException | Error e) {
        failure.set(e);
        control.requestStop("loadgen failed: " + SqlErrors.message(e));
      }
    }, "step-" + stepRun.step().name());
    driver.start();
    started.accept(driver);
    OutageWatch outage = new OutageWatch(plan.config().maxOutage().toNanos());
    long lastAttempts = 0;
    long lastTickNs = System.nanoTime();
    try {
      while (driver.isAlive()) {
        driver.join(TimeUnit.NANOSECONDS.toMillis(TICK_NS));
        long nowNs = System.nanoTime();
        if (output.sink().failure() != null) {
          control.requestStop("writing tasks.csv failed: " + output.sink().failure().getMessage());
        }
        String outageReason = outage.check(stats, nowNs);
        if (outageReason != null) {
          control.requestStop(outageReason);
        }
        long attempts = stats.attempts();
        Histogram latency = stats.sampleCumulative();
        listener.onProgress(new ProgressListener.Progress(stepRun.step().name(),
            stepRun.clock().now() < stepRun.warmupEndNs(),
            (stepRun.clock().now() - stepRun.startNs()) / 1e9, attempts, stats.errors(),
            (attempts - lastAttempts) * 1e9 / Math.max(1, nowNs - lastTickNs),
            latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(50),
            latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(99)));
        lastAttempts = attempts;
        lastTickNs = nowNs;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      control.requestStop("interrupted");
      try {
        driver.join();
      } catch (InterruptedException again) {
        Thread.currentThread().interrupt();
      }
    }
    Throwable t = failure.get();
    if (t instanceof Error error) {
      throw error;
    }
    if (t != null) {
      throw new IllegalStateException("the " + stepRun.step().name() + " step failed: " + SqlErrors.message(t), t);
    }
  }

  /** Notices when no task has succeeded for too long while tasks keep failing. */
  private static final class OutageWatch {
    private final long maxOutageNs;
    private long lastOk = -1;
    private long lastOkChangeNs = System.nanoTime();
    private long errorsAtLastOk;

    OutageWatch(long maxOutageNs) {
      this.maxOutageNs = maxOutageNs;
    }

    String check(StepStats stats, long nowNs) {
      long ok = stats.ok();
      if (ok != lastOk) {
        lastOk = ok;
        lastOkChangeNs = nowNs;
        errorsAtLastOk = stats.errors();
        return null;
      }
      if (nowNs - lastOkChangeNs > maxOutageNs && stats.errors() > errorsAtLastOk) {
        // No counts here: tasks in flight now (a connect waiting out its timeout) fail after it.
        // The run's final error text gives the counts (withErrorCounts).
        return "no task succeeded for " + TimeUnit.NANOSECONDS.toSeconds(maxOutageNs) + " s while tasks kept failing";
      }
      return null;
    }
  }

  /**
   * @param shared whether the step started on a barrier with another run: a timed one is then
   *     counted over its planned window (the tasks intended to start in it, over its length), the
   *     same interval as the other run's
   */
  private static StepResult result(Step step, StepRun run, StepStats stats, boolean shared) {
    Histogram h = stats.sampleCumulative();
    long first = stats.firstMeasuredIntendedNs();
    long last = stats.lastMeasuredEndNs();
    double measuredS = shared && run.plan().timed() ? run.plan().durationNs() / 1e9
        : first == Long.MAX_VALUE || last < first ? 0 : (last - first) / 1e9;
    long n = h.getTotalCount();
    return new StepResult(step.name(), step.taskNames(), stats.attempts(), stats.ok(), stats.errors(),
        stats.measuredOk(), stats.measuredErrors(), measuredS, measuredS > 0 ? stats.measuredOk() / measuredS : 0,
        n == 0 ? 0 : h.getValueAtPercentile(50), n == 0 ? 0 : h.getValueAtPercentile(95),
        n == 0 ? 0 : h.getValueAtPercentile(99), n == 0 ? 0 : h.getMaxValue(), stats.errorsBySqlstate(),
        stats.exampleErrorBySqlstate());
  }

  /** Writes the final manifest: its summary, and the error text's counts from that summary. */
  private static RunManifest finish(RunOutput output, RunStatus status, String error, List<StepStats> allStats) {
    RunManifest.Summary summary = summary(allStats);
    return output.finish(status, withErrorCounts(error, summary), summary);
  }

  /**
   * An interrupted run's error text followed by its failed tasks per SQLSTATE, taken from the
   * summary the manifest stores (which counts the tasks.csv lines: {@code StepRun.record}), so
   * that the run says one count everywhere. A count taken when the run was stopped was short by
   * the tasks still in flight then, recorded after it (issue 25: 27 in the text, 29 in the
   * summary).
   */
  static String withErrorCounts(String error, RunManifest.Summary summary) {
    if (error == null || summary.errors() == 0) {
      return error;
    }
    StringBuilder counts = new StringBuilder();
    summary.errorsBySqlstate().forEach((sqlstate, tasks) ->
        counts.append(counts.length() == 0 ? "" : ", ").append(sqlstate).append('=').append(tasks));
    return error + " (failed tasks by SQLSTATE: " + counts + ")";
  }

  private static RunManifest.Summary summary(List<StepStats> allStats) {
    long attempts = 0;
    long ok = 0;
    long errors = 0;
    Map<String, Long> bySqlstate = new TreeMap<>();
    synchronized (allStats) {
      for (StepStats s : allStats) {
        attempts += s.attempts();
        ok += s.ok();
        errors += s.errors();
        s.errorsBySqlstate().forEach((k, v) -> bySqlstate.merge(k, v, Long::sum));
      }
    }
    return new RunManifest.Summary(attempts, ok, errors, bySqlstate);
  }

  private static RunManifest manifest(RunPlan plan, String runId, long seed, Database database, ServerInfo info,
      boolean embedded, RunClock clock, CpuAffinity affinity) {
    LoadgenConfig c = plan.config();
    SortedMap<String, Object> parameters = new TreeMap<>(plan.workload().parameters());
    parameters.put("random_seed", seed);
    parameters.put("skip_load", c.skipLoad());
    parameters.put("query_timeout_s", c.queryTimeout().toMillis() / 1000.0);
    LoadgenConfig.Mode m = c.mode();
    if (m.kind() == ModeKind.BURST) {
      parameters.put("burst_size", m.burst());
      // How waiting tasks get a connection: a queue served by the pool's connections (earlier
      // releases started a thread per task, which costs the client CPU at the burst's start).
      parameters.put("burst_dispatch", BurstDriver.DISPATCH);
    }
    List<String> stepNames = new ArrayList<>();
    for (Step step : plan.workload().steps()) {
      stepNames.addAll(step.taskNames());
    }
    // With --read-duration and --write-duration (and no --duration) the mode shows the read steps' plan.
    StepPlan base = plan.stepPlan() != null ? plan.stepPlan() : plan.readPlan();
    if (c.workload().readDuration() != null) {
      parameters.put("read_duration_s", c.workload().readDuration().toMillis() / 1000.0);
    }
    if (c.workload().writeDuration() != null) {
      parameters.put("write_duration_s", c.workload().writeDuration().toMillis() / 1000.0);
    }
    RunManifest.Mode mode = new RunManifest.Mode(m.kind().id(), m.connections(), base.tasks(),
        base.timed() ? base.durationNs() / 1e9 : null, base.warmupNs() / 1e9,
        m.kind() == ModeKind.OPEN ? m.rate() : null, m.kind() == ModeKind.OPEN ? m.schedule().id() : null,
        m.kind() == ModeKind.BURST ? m.poolTimeout().toMillis() / 1000.0 : null);
    RunManifest.Target target = new RunManifest.Target(database.target().safeUrl(), embedded, info.version(),
        info.major(), info.nonDefaultSettings(), info.serverStart(), info.build());
    return new RunManifest(RunManifest.FORMAT_VERSION, runId,
        new RunManifest.Tool(TOOL, BenchlakeVersion.version() + " (git " + BenchlakeVersion.gitSha() + ")"),
        clock.origin().toString(), null, clock.originEpochNs(), RunStatus.RUNNING, null,
        new RunManifest.Workload(plan.workload().name(), stepNames, parameters), mode, target, ClientHost.describe(),
        new TreeMap<>(c.labels()), null, c.betweenSteps().id(), List.of(), affinity, null, null);
  }
}
