package dev.benchlake.loadgen;

import dev.benchlake.core.raw.ResourceCounter;
import dev.benchlake.core.raw.ResourceMetric;
import dev.benchlake.core.raw.ResourceMetric.Counter;
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
 * The resource counters around each step ({@link StepResources}): read before the step's
 * connections open and after they have left, both between steps on a connection of its own, so
 * the PostgreSQL counters hold every one of the step's backends' figures and the postmaster's
 * {@code cutime} every exited backend's CPU time. During the step, a daemon thread samples the
 * context switches of the server's processes and this JVM's threads every {@link #SAMPLE_MS} ms
 * (they vanish when a thread exits; see {@link ProcessCounters}); that is the only work it adds
 * to the measured window.
 *
 * <p>The server's process figures need its postmaster on this machine: an embedded server (the
 * parent of this recorder's backend). A server by URL, even on localhost, may be anyone's: its
 * process figures are recorded as not measured, its PostgreSQL figures are read. A counter that
 * cannot be read at both ends is recorded as not measured with the reason, never as zero; the run
 * goes on. {@code -Dbenchlake.loadgen.resources=off} reads nothing (bench/resources_overhead.py's
 * a/a measures the readings' cost so) and records every counter as not measured, with that reason.
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
  private ScheduledExecutorService sampler;
  private Readings before;

  private StepResourceRecorder(ResourceStatsProbe probe, String probeWhy, ProcessCounters server, String serverWhy,
      ProcessCounters client, String clientWhy) {
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
  private static final StepResourceRecorder OFF = new StepResourceRecorder(null, null, null, null, null, null);

  /**
   * A recorder on a new connection; without one, the PostgreSQL counters are not measured.
   *
   * @param embedded whether loadgen started the server (its processes are then ours to read)
   */
  static StepResourceRecorder open(Database database, int major, boolean embedded) {
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
        client == null ? "no /proc here (not Linux)" : null);
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
  private record Readings(java.time.Instant serverTakenAt, Map<String, Long> values, Map<String, String> why) {}

  /** Before the step's connections open: the first readings, then the sampler. */
  void beforeStep() {
    if (this == OFF) {
      return;
    }
    before = read(null);
    if (server != null || client != null) {
      sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "step-resources");
        t.setDaemon(true);
        return t;
      });
      sampler.scheduleAtFixedRate(this::sample, SAMPLE_MS, SAMPLE_MS, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * After the step's driver has returned: the last readings (once its connections have left).
   *
   * @param tasks the step's completed tasks, warm-up included
   * @return every step recorded so far
   */
  List<StepResources> afterStep(Step step, long tasks) {
    if (this == OFF) {
      TreeMap<String, String> off = new TreeMap<>();
      java.util.Arrays.stream(ResourceMetric.values()).flatMap(m -> m.counters().stream())
          .forEach(c -> off.put(c, SWITCHED_OFF));
      steps.add(new StepResources(step.name(), step.taskNames(), tasks, List.of(), off));
      return List.copyOf(steps);
    }
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
    steps.add(step(step.name(), step.taskNames(), tasks, before, after));
    before = null;
    return List.copyOf(steps);
  }

  /** The step's record: a counter read at both ends, or why not. */
  private static StepResources step(String name, List<String> taskNames, long tasks, Readings before,
      Readings after) {
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
        why.putIfAbsent(e.getKey(), "not read when the step started");
      }
    }
    return new StepResources(name, taskNames, tasks, counters, why);
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
    processes(server, serverWhy, why, values, Counter.SERVER_CPU_USER_NS, Counter.SERVER_CPU_SYSTEM_NS,
        Counter.SERVER_CS_VOLUNTARY, Counter.SERVER_CS_INVOLUNTARY, since == null);
    processes(client, clientWhy, why, values, Counter.CLIENT_CPU_USER_NS, Counter.CLIENT_CPU_SYSTEM_NS,
        Counter.CLIENT_CS_VOLUNTARY, Counter.CLIENT_CS_INVOLUNTARY, since == null);
    return new Readings(takenAt, values, why);
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
    if (probe != null) {
      try {
        probe.close();
      } catch (SQLException e) {
        LOG.debug("closing the resource counters' connection: {}", e.getMessage());
      }
    }
  }
}
