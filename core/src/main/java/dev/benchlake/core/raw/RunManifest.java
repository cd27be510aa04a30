package dev.benchlake.core.raw;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * {@code manifest.json} of a loadgen run: everything needed to interpret {@code tasks.csv} and to
 * reproduce the run. Written when the run starts (status {@code running}) and rewritten atomically
 * when it ends; a manifest still saying {@code running} after the process is gone means the run
 * was interrupted.
 *
 * <p>No field may hold a password: {@link Target#jdbcUrl()} is stored without credentials.
 *
 * @param formatVersion version of this contract; readers reject versions newer than they know
 * @param runId unique id of the run (a UUID unless the user named it)
 * @param tool the program that made the run
 * @param startedAt ISO-8601 UTC instant the run started
 * @param finishedAt ISO-8601 UTC instant it ended, absent while running
 * @param originEpochNs wall-clock instant (ns since the epoch, UTC) of the monotonic origin that
 *     every time in tasks.csv is relative to
 * @param status how the run ended
 * @param error why it failed or was interrupted, when it did
 * @param workload what was run
 * @param mode how load was applied
 * @param target the database
 * @param client the machine that ran the load
 * @param labels user labels ({@code --label key=value})
 * @param summary counts at the end of the run, absent while running
 * @param betweenSteps what loadgen ran on the workload's tables between steps ({@code none},
 *     {@code analyze}, {@code vacuum-analyze}, {@code checkpoint}); absent in manifests written
 *     before it was recorded (an additive field: the format version stays)
 * @param stepHealth per step, the table health before and after it ({@link StepHealth}); absent
 *     in older manifests and in runs whose server statistics could not be read
 * @param cpuAffinity the CPUs the client and the server were allowed to run on ({@link CpuAffinity});
 *     absent in older manifests and where the kernel does not say (not Linux). Additive, as the
 *     fields above: older manifests stay readable, the format version stays
 * @param stepWindows per step, when it ran as planned ({@link StepWindow}); absent in older manifests
 * @param stepMetrics whole-step figures the run computed itself ({@link StepMetric}), e.g. scan's
 *     rows per second; absent when there are none and in older manifests
 * @param stepResources per step, the resource counters around it ({@link StepResources}); absent in
 *     older manifests (additive: the format version stays)
 * @param stepPlans per step, the plan of each statement shape its tasks ran ({@link StatementPlan});
 *     absent in older manifests and in runs of other tools
 * @param stepCpuSwaps per step of a duet whose CPU sets were swapped inside the window, the moves
 *     and the time with one under way ({@link StepCpuSwap}, the pair's figures); absent in older
 *     manifests (read as not recorded) and in other runs
 */
public record RunManifest(
    int formatVersion,
    String runId,
    Tool tool,
    String startedAt,
    String finishedAt,
    long originEpochNs,
    RunStatus status,
    String error,
    Workload workload,
    Mode mode,
    Target target,
    Client client,
    SortedMap<String, String> labels,
    Summary summary,
    String betweenSteps,
    List<StepHealth> stepHealth,
    CpuAffinity cpuAffinity,
    List<StepWindow> stepWindows,
    List<StepMetric> stepMetrics,
    List<StepResources> stepResources,
    List<StatementPlan> stepPlans,
    List<StepCpuSwap> stepCpuSwaps) {

  public static final int FORMAT_VERSION = 1;

  /** A manifest without CPU-swap figures (written before they were recorded, or not a duet's swapped run). */
  public RunManifest(int formatVersion, String runId, Tool tool, String startedAt, String finishedAt,
      long originEpochNs, RunStatus status, String error, Workload workload, Mode mode, Target target, Client client,
      SortedMap<String, String> labels, Summary summary, String betweenSteps, List<StepHealth> stepHealth,
      CpuAffinity cpuAffinity, List<StepWindow> stepWindows, List<StepMetric> stepMetrics,
      List<StepResources> stepResources, List<StatementPlan> stepPlans) {
    this(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload, mode, target,
        client, labels, summary, betweenSteps, stepHealth, cpuAffinity, stepWindows, stepMetrics, stepResources,
        stepPlans, null);
  }

  /** A manifest without plans (written before they were recorded). */
  public RunManifest(int formatVersion, String runId, Tool tool, String startedAt, String finishedAt,
      long originEpochNs, RunStatus status, String error, Workload workload, Mode mode, Target target, Client client,
      SortedMap<String, String> labels, Summary summary, String betweenSteps, List<StepHealth> stepHealth,
      CpuAffinity cpuAffinity, List<StepWindow> stepWindows, List<StepMetric> stepMetrics,
      List<StepResources> stepResources) {
    this(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload, mode, target,
        client, labels, summary, betweenSteps, stepHealth, cpuAffinity, stepWindows, stepMetrics, stepResources, null);
  }

  /** A manifest without resource counters and plans (written before they were recorded). */
  public RunManifest(int formatVersion, String runId, Tool tool, String startedAt, String finishedAt,
      long originEpochNs, RunStatus status, String error, Workload workload, Mode mode, Target target, Client client,
      SortedMap<String, String> labels, Summary summary, String betweenSteps, List<StepHealth> stepHealth,
      CpuAffinity cpuAffinity, List<StepWindow> stepWindows, List<StepMetric> stepMetrics) {
    this(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload, mode, target,
        client, labels, summary, betweenSteps, stepHealth, cpuAffinity, stepWindows, stepMetrics, null, null);
  }

  /** A manifest without table health (written before it was recorded, or by a test). */
  public RunManifest(int formatVersion, String runId, Tool tool, String startedAt, String finishedAt,
      long originEpochNs, RunStatus status, String error, Workload workload, Mode mode, Target target, Client client,
      SortedMap<String, String> labels, Summary summary) {
    this(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload, mode, target,
        client, labels, summary, null, null);
  }

  /** A manifest without the CPU sets, step windows and step figures (written before they were recorded). */
  public RunManifest(int formatVersion, String runId, Tool tool, String startedAt, String finishedAt,
      long originEpochNs, RunStatus status, String error, Workload workload, Mode mode, Target target, Client client,
      SortedMap<String, String> labels, Summary summary, String betweenSteps, List<StepHealth> stepHealth) {
    this(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload, mode, target,
        client, labels, summary, betweenSteps, stepHealth, null, null, null);
  }

  /** @param name e.g. {@code benchlake-loadgen}; @param version e.g. {@code 0.1.0 (git abc123)} */
  public record Tool(String name, String version) {}

  /**
   * @param name the workload, e.g. {@code select-update} or {@code sysbench}
   * @param steps the steps in the order they ran
   * @param parameters every parameter that shapes the data or the tasks (scale, tables,
   *     table_size, script, random_seed …), as given or defaulted
   */
  public record Workload(String name, List<String> steps, SortedMap<String, Object> parameters) {}

  /**
   * @param kind {@code closed}, {@code open} or {@code burst}
   * @param clients connections (closed/open loop) or pool size (burst)
   * @param tasks planned tasks per step, or absent for a timed run
   * @param durationS planned duration per step in seconds, or absent
   * @param warmupS warm-up per step in seconds
   * @param rate open loop: tasks per second
   * @param schedule open loop: {@code poisson} or {@code fixed}
   * @param poolTimeoutS burst: how long a task may wait for a connection
   */
  public record Mode(
      String kind,
      int clients,
      Long tasks,
      Double durationS,
      Double warmupS,
      Double rate,
      String schedule,
      Double poolTimeoutS) {}

  /**
   * @param jdbcUrl the JDBC URL without user or password
   * @param embedded whether loadgen started the server itself
   * @param serverVersion {@code select version()}
   * @param major the server's major version, e.g. 16
   * @param settings every setting whose source is not {@code default} (name → value with unit)
   * @param serverStart which start of which cluster served the run, absent in manifests written
   *     before it was recorded (an additive field: the format version stays)
   * @param build how the server was built ({@code pg_config}'s {@code CONFIGURE}: the options of its
   *     configure), which tells an embedded or packaged build from the one a user deploys; absent when
   *     the user may not read {@code pg_config} (superuser-only) and in manifests written before it was
   *     recorded (additive, as {@code server_start})
   */
  public record Target(
      String jdbcUrl, boolean embedded, String serverVersion, Integer major, SortedMap<String, String> settings,
      ServerStart serverStart, String build) {
    /** A target whose server start is not known. */
    public Target(String jdbcUrl, boolean embedded, String serverVersion, Integer major,
        SortedMap<String, String> settings) {
      this(jdbcUrl, embedded, serverVersion, major, settings, null);
    }

    /** A target whose build is not known. */
    public Target(String jdbcUrl, boolean embedded, String serverVersion, Integer major,
        SortedMap<String, String> settings, ServerStart serverStart) {
      this(jdbcUrl, embedded, serverVersion, major, settings, serverStart, null);
    }
  }

  /**
   * The identity of one server start: runs with the same one shared a server process (its caches,
   * its plan and statistics state), so they are not independent replicates. This JSON shape
   * ({@code target.server_start}) is what ingest reads into {@code runs.server_start}.
   *
   * @param postmasterStartTime {@code pg_postmaster_start_time()} as an ISO-8601 UTC instant
   * @param dataDirectory the server's {@code data_directory}, or null when the user may not read
   *     it (written as {@code null}, not left out: the field is part of the shape)
   */
  public record ServerStart(
      String postmasterStartTime,
      @JsonInclude(JsonInclude.Include.ALWAYS) String dataDirectory) {}

  /**
   * @param host host name
   * @param os e.g. {@code Linux}
   * @param osVersion kernel version
   * @param arch e.g. {@code amd64}
   * @param cpus available processors
   * @param memoryBytes physical memory, when known
   * @param jvm e.g. {@code 17.0.15 (Debian)}
   */
  public record Client(
      String host, String os, String osVersion, String arch, int cpus, Long memoryBytes, String jvm) {}

  /**
   * @param attempts tasks attempted (= lines of tasks.csv)
   * @param ok tasks that succeeded
   * @param errors tasks that failed
   * @param errorsBySqlstate failures per SQLSTATE (empty SQLSTATE as {@code none})
   */
  public record Summary(long attempts, long ok, long errors, Map<String, Long> errorsBySqlstate) {}

  public String toJson() {
    try {
      return Json.mapper().writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static RunManifest fromJson(String json) throws IOException {
    RunManifest manifest = Json.mapper().readValue(json, RunManifest.class);
    if (manifest.formatVersion() > FORMAT_VERSION) {
      throw new IOException("manifest format_version " + manifest.formatVersion()
          + " is newer than this benchlake understands (" + FORMAT_VERSION + "); upgrade benchlake");
    }
    if (manifest.runId() == null || manifest.runId().isBlank()) {
      throw new IOException("manifest has no run_id");
    }
    return manifest;
  }

  public static RunManifest read(Path file) throws IOException {
    return fromJson(Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Writes to a temporary file beside {@code file} and renames it, so readers never see half a manifest. */
  public void writeAtomically(Path file) throws IOException {
    AtomicFiles.writeString(file, toJson() + "\n");
  }

  /** This manifest with another status, end time, error and summary. */
  public RunManifest finish(RunStatus newStatus, String finishedAtUtc, String newError, Summary newSummary) {
    return new RunManifest(formatVersion, runId, tool, startedAt, finishedAtUtc, originEpochNs, newStatus,
        newError, workload, mode, target, client, labels, newSummary, betweenSteps, stepHealth, cpuAffinity, stepWindows,
        stepMetrics, stepResources, stepPlans, stepCpuSwaps);
  }

  /** This manifest with the steps' table health so far. */
  public RunManifest withStepHealth(List<StepHealth> steps) {
    return new RunManifest(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload,
        mode, target, client, labels, summary, betweenSteps, steps == null ? null : List.copyOf(steps), cpuAffinity,
        stepWindows, stepMetrics, stepResources, stepPlans, stepCpuSwaps);
  }

  /** This manifest with the steps' windows and their own figures so far (null or empty: none). */
  public RunManifest withSteps(List<StepWindow> windows, List<StepMetric> metrics) {
    return new RunManifest(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload,
        mode, target, client, labels, summary, betweenSteps, stepHealth, cpuAffinity,
        windows == null || windows.isEmpty() ? null : List.copyOf(windows),
        metrics == null || metrics.isEmpty() ? null : List.copyOf(metrics), stepResources, stepPlans, stepCpuSwaps);
  }

  /** This manifest with the steps' resource counters so far (null or empty: none). */
  public RunManifest withStepResources(List<StepResources> steps) {
    return new RunManifest(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload,
        mode, target, client, labels, summary, betweenSteps, stepHealth, cpuAffinity, stepWindows, stepMetrics,
        steps == null || steps.isEmpty() ? null : List.copyOf(steps), stepPlans, stepCpuSwaps);
  }

  /** This manifest with the steps' plans so far (null or empty: none). */
  public RunManifest withStepPlans(List<StatementPlan> plans) {
    return new RunManifest(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload,
        mode, target, client, labels, summary, betweenSteps, stepHealth, cpuAffinity, stepWindows, stepMetrics,
        stepResources, plans == null || plans.isEmpty() ? null : List.copyOf(plans), stepCpuSwaps);
  }

  /** This manifest with the in-window swap's figures per step (null or empty: none). */
  public RunManifest withStepCpuSwaps(List<StepCpuSwap> steps) {
    return new RunManifest(formatVersion, runId, tool, startedAt, finishedAt, originEpochNs, status, error, workload,
        mode, target, client, labels, summary, betweenSteps, stepHealth, cpuAffinity, stepWindows, stepMetrics,
        stepResources, stepPlans, steps == null || steps.isEmpty() ? null : List.copyOf(steps));
  }
}
