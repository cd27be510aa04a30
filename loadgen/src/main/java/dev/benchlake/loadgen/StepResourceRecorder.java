package dev.benchlake.loadgen;

import dev.benchlake.core.raw.ResourceCounter;
import dev.benchlake.core.raw.ResourceMetric;
import dev.benchlake.core.raw.ResourceMetric.Counter;
import dev.benchlake.core.raw.StepProfile;
import dev.benchlake.core.raw.StepResources;
import dev.benchlake.loadgen.db.Database;
import dev.benchlake.loadgen.db.ResourceStatsProbe;
import dev.benchlake.loadgen.db.SqlErrors;
import dev.benchlake.loadgen.workload.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource counters over each step's measured window ({@link StepResources}, window
 * {@value StepResources#MEASURED}): a first reading when the warm-up ends (before the step's
 * connections open when it has none), on a thread of its own at the planned instant, and a last
 * one after the step's connections have left, on a connection of its own, so the PostgreSQL
 * counters hold every one of the step's backends' figures (a backend flushes them when it exits)
 * and the postmaster's {@code cutime} every exited backend's CPU time. The divisor is the window's
 * completed tasks (the measured ones). A live backend's CPU time is exact at any instant; its
 * PostgreSQL counters at the first reading lag it by up to its flush interval (1 s from 15, 500 ms
 * before). During the step, a daemon thread samples the context switches of the server's processes
 * and this JVM's threads every {@link #SAMPLE_MS} ms (they vanish when a thread exits; see
 * {@link ProcessCounters}); that and the first reading are the only work it adds to the step.
 *
 * <p>The server's process figures need its postmaster on this machine: an embedded server (the
 * parent of this recorder's backend). A server by URL, even on localhost, may be anyone's: its
 * process figures are recorded as not measured, its PostgreSQL figures are read. A counter that
 * cannot be read at both ends is recorded as not measured with the reason, never as zero; the run
 * goes on. {@code -Dbenchlake.loadgen.resources=off} reads nothing (bench/resources_overhead.py's
 * a/a measures the readings' cost so) and records every counter as not measured, with that reason.
 *
 * <p>With {@code --profile}, a {@link StepProfiler} samples the server's tree over the same window.
 */
final class StepResourceRecorder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StepResourceRecorder.class);
  /** How often the context switches are sampled during a step. */
  static final long SAMPLE_MS = 200;

  private final ResourceStatsProbe probe;
  private final String probeWhy;
  private final ProcessCounters server;
  private final String serverWhy;
  private final ProcessCounters client;
  private final String clientWhy;
  private final List<StepResources> steps = new ArrayList<>();
  private final StepProfiler profiler;
  private ScheduledExecutorService sampler;
  /** The first reading's thread: the instant the warm-up ends is hers to wait for. */
  private ScheduledExecutorService windowStart;
  private Readings before;
  private java.util.concurrent.Future<Readings> from;

  private StepResourceRecorder(ResourceStatsProbe probe, String probeWhy, ProcessCounters server, String serverWhy,
      ProcessCounters client, String clientWhy, StepProfiler profiler) {
    this.profiler = profiler;
    this.probe = probe;
    this.probeWhy = probeWhy;
    this.server = server;
    this.serverWhy = serverWhy;
    this.client = client;
    this.clientWhy = clientWhy;
  }

  /** Why every counter is not measured when the readings are switched off. */
  static final String SWITCHED_OFF = "switched off (-Dbenchlake.loadgen.resources=off)";

  /** A recorder that reads nothing ({@code -Dbenchlake.loadgen.resources=off}). */
  private static final StepResourceRecorder OFF = new StepResourceRecorder(null, null, null, null, null, null, null);

  /**
   * A recorder on a new connection; without one, the PostgreSQL counters are not measured.
   *
   * @param embedded whether loadgen started the server (its processes are then ours to read)
   * @param profiler the server's profiler over each window ({@code --profile}), or null
   */
  static StepResourceRecorder open(Database database, int major, boolean embedded, StepProfiler profiler) {
    if ("off".equals(System.getProperty("benchlake.loadgen.resources"))) {
      return OFF;
    }
    ResourceStatsProbe probe = null;
    String probeWhy = null;
    try {
      probe = new ResourceStatsProbe(database.connect(), major, database.applicationName());
    } catch (SQLException e) {
      probeWhy = "cannot connect: " + database.target().scrub(SqlErrors.message(e));
      LOG.warn("no PostgreSQL resource counters will be recorded: {}", probeWhy);
    }
    ProcessCounters server = null;
    String serverWhy;
    if (!embedded) {
      serverWhy = "a server by URL: its processes are not known to loadgen";
    } else if (probe == null) {
      serverWhy = "its postmaster is not known: " + probeWhy;
    } else {
      Optional<ProcessCounters> tree = postmaster(probe).flatMap(ProcessCounters::tree);
      server = tree.orElse(null);
      serverWhy = tree.isPresent() ? null : "its postmaster is not readable in /proc";
    }
    ProcessCounters client = ProcessCounters.self().orElse(null);
    return new StepResourceRecorder(probe, probeWhy, server, serverWhy, client,
        client == null ? "no /proc here (not Linux)" : null, profiler);
  }

  /** The parent of the probe's backend, from /proc. */
  private static Optional<Long> postmaster(ResourceStatsProbe probe) {
    try {
      String stat = Files.readString(Path.of("/proc/" + probe.backendPid() + "/stat"), StandardCharsets.UTF_8);
      return Optional.of(ProcessCounters.parseStat(stat).ppid());
    } catch (IOException | SQLException | RuntimeException e) {
      LOG.debug("the embedded server's postmaster: {}", e.getMessage());
      return Optional.empty();
    }
  }

  /** Everything read at one end of a step; a counter missing from {@code values} is in {@code why}. */
  private record Readings(java.time.Instant serverTakenAt, long takenAtEpochNs, Map<String, Long> values,
      Map<String, String> why) {}

  /** Before the step's connections open: a reading (the window's first when there is no warm-up), then the sampler. */
  void beforeStep() {
    if (this == OFF) {
      return;
    }
    before = read(null);
    from = null;
    if (server != null || client != null) {
      sampler = daemon("step-resources");
      sampler.scheduleAtFixedRate(this::sample, SAMPLE_MS, SAMPLE_MS, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The step started: its measured window begins {@code inNs} from now (its warm-up's length;
   * zero or less: the reading before the step is the window's first). The first reading, and the
   * profile's start, happen then on a thread of their own.
   */
  void windowStarts(String step, long inNs) {
    if (this == OFF) {
      return;
    }
    if (inNs <= 0) {
      from = java.util.concurrent.CompletableFuture.completedFuture(before);
      startProfile(step);
      return;
    }
    if (windowStart == null) {
      windowStart = daemon("measured-window");
    }
    from = windowStart.schedule(() -> {
      Readings r = read(null);
      startProfile(step);
      return r;
    }, inNs, TimeUnit.NANOSECONDS);
  }

  private void startProfile(String step) {
    if (profiler != null && server != null) {
      try {
        profiler.start(step, server.livePids());
      } catch (IOException | RuntimeException e) {
        LOG.warn("the profile of {} was not started: {}", step, e.getMessage());
      }
    }
  }

  /** The step's driver has returned: the window's sampling ends (the profile's; the counters' last reading follows). */
  void windowEnds() {
    if (profiler != null) {
      profiler.stop();
    }
  }

  private static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * After the step's driver has returned: the last readings (once its connections have left), and
   * the profile's report.
   *
   * @param tasks the completed tasks of the step's measured window (its warm-up's left out)
   * @return every step recorded so far
   */
  List<StepResources> afterStep(Step step, long tasks) {
    if (this == OFF) {
      TreeMap<String, String> off = new TreeMap<>();
      java.util.stream.Stream.concat(java.util.Arrays.stream(ResourceMetric.values()).flatMap(m -> m.counters()
          .stream()), java.util.stream.Stream.of(Counter.MACHINE_CPU_BUSY_NS, Counter.MACHINE_CPU_NS))
          .forEach(c -> off.put(c, SWITCHED_OFF));
      steps.add(new StepResources(step.name(), step.taskNames(), tasks, List.of(), off, StepResources.MEASURED, null,
          null, null));
      return List.copyOf(steps);
    }
    Readings first = windowStart();
    if (sampler != null) {
      sampler.shutdownNow();
      try {
        sampler.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sampler = null;
    }
    Readings after = read(before == null ? null : before.serverTakenAt());
    StepProfile profile = profiler == null ? null
        : server == null ? StepProfile.notProfiled(serverWhy)
        : first == null ? StepProfile.notProfiled(NO_WINDOW)
        : profiler.profile(step.name());
    steps.add(step(step.name(), step.taskNames(), tasks, first, after, profile));
    before = null;
    from = null;
    return List.copyOf(steps);
  }

  /** Why a step has no first reading: it was stopped before its warm-up ended. */
  static final String NO_WINDOW = "the step stopped before its warm-up ended";

  /** The window's first reading, or null when the step stopped before it (it is then not taken). */
  private Readings windowStart() {
    java.util.concurrent.Future<Readings> f = from;
    if (f == null) {
      return null;
    }
    if (!f.isDone() && f.cancel(false)) {
      return null;
    }
    try {
      return f.get();
    } catch (java.util.concurrent.CancellationException | java.util.concurrent.ExecutionException e) {
      LOG.warn("the measured window's first reading failed: {}", e.getMessage());
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The step's record: a counter read at both ends, or why not. */
  private static StepResources step(String name, List<String> taskNames, long tasks, Readings before,
      Readings after, StepProfile profile) {
    List<ResourceCounter> counters = new ArrayList<>();
    TreeMap<String, String> why = new TreeMap<>();
    if (before != null) {
      why.putAll(before.why());
    }
    why.putAll(after.why());
    for (Map.Entry<String, Long> e : after.values().entrySet()) {
      Long start = before == null ? null : before.values().get(e.getKey());
      if (start != null) {
        counters.add(new ResourceCounter(e.getKey(), start, e.getValue(), unit(e.getKey())));
        why.remove(e.getKey());
      } else {
        why.putIfAbsent(e.getKey(), before == null ? NO_WINDOW : "not read when the measured window started");
      }
    }
    return new StepResources(name, taskNames, tasks, counters, why, StepResources.MEASURED,
        before == null ? null : before.takenAtEpochNs(), after.takenAtEpochNs(), profile);
  }

  private static String unit(String counter) {
    if (counter.endsWith("_ns")) {
      return "ns";
    }
    if (counter.endsWith("_bytes")) {
      return "bytes";
    }
    return counter.startsWith("blks_") ? "blocks" : "count";
  }

  /**
   * Up to PostgreSQL 14: the instant after which the stats file of the last after-step reading was
   * written (its connections had left by then), for the table health probe to reuse; else null.
   */
  java.time.Instant statsFileAfter() {
    return probe == null ? null : probe.statsFileAfter();
  }

  /** PostgreSQL's counters first (after a step they wait for its connections to leave), then the processes'. */
  private Readings read(java.time.Instant since) {
    Map<String, Long> values = new LinkedHashMap<>();
    Map<String, String> why = new TreeMap<>();
    java.time.Instant takenAt = null;
    String[] pgCounters = {Counter.WAL_RECORDS, Counter.WAL_FPI, Counter.WAL_BYTES, Counter.BLKS_HIT,
        Counter.BLKS_READ, Counter.TEMP_BYTES, Counter.XACT_COMMIT, Counter.XACT_ROLLBACK, Counter.IO_READ_BYTES,
        Counter.IO_WRITE_BYTES};
    if (probe == null) {
      notMeasured(why, probeWhy, pgCounters);
    } else {
      try {
        ResourceStatsProbe.Snapshot s = probe.take(since);
        takenAt = s.takenAt();
        values.putAll(s.counters());
        why.putAll(s.notMeasured());
      } catch (SQLException | RuntimeException e) {
        LOG.warn("PostgreSQL resource counters not recorded for this step: {}", SqlErrors.message(e));
        notMeasured(why, "could not be read: " + SqlErrors.message(e), pgCounters);
      }
    }
    java.time.Instant now = java.time.Instant.now();
    long takenAtEpochNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    processes(server, serverWhy, why, values, Counter.SERVER_CPU_USER_NS, Counter.SERVER_CPU_SYSTEM_NS,
        Counter.SERVER_CS_VOLUNTARY, Counter.SERVER_CS_INVOLUNTARY, since == null);
    processes(client, clientWhy, why, values, Counter.CLIENT_CPU_USER_NS, Counter.CLIENT_CPU_SYSTEM_NS,
        Counter.CLIENT_CS_VOLUNTARY, Counter.CLIENT_CS_INVOLUNTARY, since == null);
    machine(why, values);
    return new Readings(takenAt, takenAtEpochNs, values, why);
  }

  private static void processes(ProcessCounters p, String unavailable, Map<String, String> why,
      Map<String, Long> values, String user, String system, String voluntary, String involuntary, boolean start) {
    if (p == null) {
      notMeasured(why, unavailable, user, system, voluntary, involuntary);
      return;
    }
    try {
      if (start) {
        p.resetSwitches();
      }
      p.sampleSwitches();
      ProcessCounters.Cpu cpu = p.cpu();
      long[] cs = p.switches();
      values.put(user, cpu.userNs());
      values.put(system, cpu.systemNs());
      values.put(voluntary, cs[0]);
      values.put(involuntary, cs[1]);
    } catch (IOException | RuntimeException e) {
      LOG.warn("process counters not recorded for this step: {}", e.getMessage());
      notMeasured(why, "could not be read: " + e.getMessage(), user, system, voluntary, involuntary);
    }
  }

  /** The whole machine's CPU time, beside the processes' own: what other work took of it is the difference. */
  private static void machine(Map<String, String> why, Map<String, Long> values) {
    try {
      Optional<MachineCpu.Reading> r = MachineCpu.read();
      if (r.isEmpty()) {
        notMeasured(why, "no /proc/stat here (not Linux)", Counter.MACHINE_CPU_BUSY_NS, Counter.MACHINE_CPU_NS);
        return;
      }
      values.put(Counter.MACHINE_CPU_BUSY_NS, r.get().busyNs());
      values.put(Counter.MACHINE_CPU_NS, r.get().allNs());
    } catch (IOException | RuntimeException e) {
      notMeasured(why, "could not be read: " + e.getMessage(), Counter.MACHINE_CPU_BUSY_NS, Counter.MACHINE_CPU_NS);
    }
  }

  private void sample() {
    for (ProcessCounters p : new ProcessCounters[] {server, client}) {
      if (p != null) {
        try {
          p.sampleSwitches();
        } catch (IOException | RuntimeException e) {
          LOG.debug("context switch sample: {}", e.getMessage());
        }
      }
    }
  }

  private static void notMeasured(Map<String, String> why, String reason, String... counters) {
    for (String c : counters) {
      why.put(c, reason);
    }
  }

  @Override
  public void close() {
    if (sampler != null) {
      sampler.shutdownNow();
    }
    if (windowStart != null) {
      windowStart.shutdownNow();
    }
    if (profiler != null) {
      profiler.stop();
    }
    if (probe != null) {
      try {
        probe.close();
      } catch (SQLException e) {
        LOG.debug("closing the resource counters' connection: {}", e.getMessage());
      }
    }
  }
}
