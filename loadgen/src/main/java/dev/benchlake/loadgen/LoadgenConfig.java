package dev.benchlake.loadgen;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.loadgen.run.ArrivalSchedule;
import dev.benchlake.loadgen.workload.RandType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything one loadgen run needs; what {@code benchlake loadgen}'s options build, and what other
 * commands (e.g. a quickstart running several runs in one JVM) pass to {@link Loadgen#run}.
 * Validated by {@link Loadgen#run}, which throws {@link dev.benchlake.core.cli.BadInputException}
 * for anything a user could get wrong. Start from {@link #builder()}.
 *
 * @param target the database
 * @param workload what to run
 * @param mode how to apply the load
 * @param tasks measured tasks per step, or null for a timed run
 * @param duration measured time per step, or null for a run of {@code tasks}
 * @param warmup warm-up per step (tasks recorded, marked {@code warmup})
 * @param randomSeed seed of every random choice (null: drawn at random, recorded in the manifest)
 * @param outDir the run directory to create (must not exist or be empty); null only when tasks are not recorded
 * @param runId the run's id, or null for a random UUID
 * @param labels {@code --label key=value}
 * @param skipLoad use the tables already in the database instead of (re)creating them
 * @param recordTasks write the run directory (false: only count, to measure loadgen's own overhead)
 * @param tasksFile the tasks file's name: {@code tasks.csv}, or {@code tasks.csv.gz} for the compact
 *     form ({@code --tasks-file}); null: tasks.csv
 * @param connectTimeout limit on connecting and logging in
 * @param queryTimeout limit on any one read from the server (a longer query fails and its connection is replaced)
 * @param maxOutage end the run (interrupted) when no task succeeded for this long while tasks failed
 * @param environment where {@code PGPASSWORD} and {@code PGPASSFILE} are read from
 * @param betweenSteps what runs on the workload's tables between steps (null: none)
 * @param stepBarrier what each step waits behind before it starts ({@link StepBarrier#NONE}: nothing;
 *     a duet's sides: their coordinator, so that both start every step together)
 * @param handicapStretch a handicap of known size for {@code benchlake calibrate}: every task's latency
 *     stretched by this share ({@link dev.benchlake.loadgen.run.HandicapStretch}); 0 for a real run. A
 *     run with one carries the label {@link #HANDICAP_LABEL}, so that it never passes for a real one.
 * @param profileHz {@code --profile}: the embedded server's CPU profile over each step's measured
 *     window at this many samples a second ({@link StepProfiler}); null: no profile, nothing started
 */
public record LoadgenConfig(
    Target target,
    WorkloadSpec workload,
    Mode mode,
    Long tasks,
    Duration duration,
    Duration warmup,
    Long randomSeed,
    Path outDir,
    String runId,
    SortedMap<String, String> labels,
    boolean skipLoad,
    boolean recordTasks,
    String tasksFile,
    Duration connectTimeout,
    Duration queryTimeout,
    Duration maxOutage,
    Map<String, String> environment,
    BetweenSteps betweenSteps,
    StepBarrier stepBarrier,
    double handicapStretch,
    Integer profileHz) {

  /** The label of every run made with a handicap: its stretch ({@code 0.05}). */
  public static final String HANDICAP_LABEL = "handicap_stretch";

  public LoadgenConfig {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(mode, "mode");
    labels = labels == null ? new TreeMap<>() : new TreeMap<>(labels);
    environment = environment == null ? Map.of() : Map.copyOf(environment);
    warmup = warmup == null ? Duration.ZERO : warmup;
    betweenSteps = betweenSteps == null ? BetweenSteps.NONE : betweenSteps;
    stepBarrier = stepBarrier == null ? StepBarrier.NONE : stepBarrier;
    tasksFile = tasksFile == null ? RunDirectory.TASKS : tasksFile;
    if (!RunDirectory.isTasksFile(tasksFile)) {
      throw new BadInputException("--tasks-file: '" + tasksFile + "' is neither " + RunDirectory.TASKS + " nor "
          + RunDirectory.TASKS_GZ);
    }
    if (profileHz != null) {
      if (profileHz < 1 || profileHz > StepProfiler.MAX_HZ) {
        throw new BadInputException("--profile: " + profileHz + " Hz is not between 1 and " + StepProfiler.MAX_HZ);
      }
      if (!(target instanceof Embedded)) {
        throw new BadInputException("--profile profiles an embedded server (--pg-version): a server by URL's "
            + "processes are not loadgen's to profile");
      }
    }
    if (handicapStretch > 0 && Double.isFinite(handicapStretch)) {
      labels.put(HANDICAP_LABEL, LoadgenDefaults.number(handicapStretch));
    }
  }

  /** This config writing its run to {@code dir} (several runs of one config each need their own directory). */
  public LoadgenConfig withOutDir(Path dir) {
    return new LoadgenConfig(target, workload, mode, tasks, duration, warmup, randomSeed, dir, runId, labels, skipLoad,
        recordTasks, tasksFile, connectTimeout, queryTimeout, maxOutage, environment, betweenSteps, stepBarrier,
        handicapStretch, profileHz);
  }

  /**
   * This config as a warm-up of the client's JVM: recorded to {@code dir} (so that the JVM runs the
   * recording's code too), with a run id of its own, and not profiled: its runs are deleted, and
   * perf's start and report would only lengthen it.
   */
  public LoadgenConfig forWarmUp(Path dir) {
    return new LoadgenConfig(target, workload, mode, tasks, duration, warmup, randomSeed, dir, null, labels, skipLoad,
        true, tasksFile, connectTimeout, queryTimeout, maxOutage, environment, betweenSteps, stepBarrier,
        handicapStretch, null);
  }

  /** This config with {@code --profile} at {@code hz} samples a second (null: none), checked as loadgen checks it. */
  public LoadgenConfig withProfile(Integer hz) {
    return new LoadgenConfig(target, workload, mode, tasks, duration, warmup, randomSeed, outDir, runId, labels,
        skipLoad, recordTasks, tasksFile, connectTimeout, queryTimeout, maxOutage, environment, betweenSteps,
        stepBarrier, handicapStretch, hz);
  }

  /**
   * This config running only {@code steps} of its sysbench steps ({@link WorkloadSpec#stepNames}:
   * {@code mytools} resolved to its steps), each where it was in the sequence (a study run until
   * decided leaves out the steps it has decided).
   */
  public LoadgenConfig withSteps(java.util.List<String> steps) {
    WorkloadSpec w = workload;
    List<String> names = w.stepNames();
    if (!names.containsAll(steps)) {
      throw new IllegalArgumentException("steps " + steps + " are not all among " + names);
    }
    WorkloadSpec only = new WorkloadSpec(w.name(), names.stream().filter(steps::contains).toList(), w.scale(),
        w.thinkMin(), w.thinkMax(), w.tables(), w.tableSize(), w.rangeSize(), w.randType(), w.scripts(), w.defines(),
        w.readDuration(), w.writeDuration());
    return new LoadgenConfig(target, only, mode, tasks, duration, warmup, randomSeed, outDir, runId, labels, skipLoad,
        recordTasks, tasksFile, connectTimeout, queryTimeout, maxOutage, environment, betweenSteps, stepBarrier,
        handicapStretch, profileHz);
  }

  /** This config with one more label (or another value for it). */
  public LoadgenConfig withLabel(String key, String value) {
    SortedMap<String, String> more = new TreeMap<>(labels);
    more.put(key, value);
    return new LoadgenConfig(target, workload, mode, tasks, duration, warmup, randomSeed, outDir, runId, more, skipLoad,
        recordTasks, tasksFile, connectTimeout, queryTimeout, maxOutage, environment, betweenSteps, stepBarrier,
        handicapStretch, profileHz);
  }

  /** The database: an embedded server loadgen starts, or any server by URL. */
  public sealed interface Target permits Embedded, External {}

  /**
   * @param major PostgreSQL major version (11..17)
   * @param settings {@code --pg-setting name=value}
   * @param parentDir where the temporary cluster goes (null: java.io.tmpdir)
   */
  public record Embedded(int major, Map<String, String> settings, Path parentDir) implements Target {
    public Embedded {
      settings = Map.copyOf(settings);
    }
  }

  /** @param jdbcUrl without a password; @param user null for the URL's or the OS user */
  public record External(String jdbcUrl, String user) implements Target {}

  /**
   * @param name {@code select-update}, {@code sysbench}, {@code script} or a sysbench step name
   * @param steps {@code --steps} (sysbench)
   * @param scale select-update: rows per thread = 100000 × scale
   * @param thinkMin select-update: shortest pause between SELECT and UPDATE
   * @param thinkMax select-update: longest pause
   * @param tables sysbench: number of sbtest tables
   * @param tableSize sysbench: rows per table
   * @param rangeSize sysbench: ids per range query
   * @param randType sysbench: distribution of ids
   * @param scripts script: {@code FILE[@WEIGHT]}
   * @param defines script: {@code --define name=value}
   * @param readDuration measured time of each step that reads only, overriding {@code --duration} (null: none)
   * @param writeDuration measured time of each step that writes, overriding {@code --duration} (null: none)
   */
  public record WorkloadSpec(String name, List<String> steps, double scale, Duration thinkMin, Duration thinkMax,
      int tables, int tableSize, int rangeSize, RandType randType, List<String> scripts, Map<String, Long> defines,
      Duration readDuration, Duration writeDuration) {
    public WorkloadSpec {
      steps = List.copyOf(steps);
      scripts = List.copyOf(scripts);
      defines = Map.copyOf(defines);
    }

    /**
     * The names of the steps a run measures, as its {@code tasks.csv} names them: the sysbench steps
     * resolved ({@code mytools} is its 48), else the workload's one step ({@code select-update}).
     */
    public List<String> stepNames() {
      if (steps.isEmpty()) {
        return List.of(name);
      }
      return dev.benchlake.loadgen.workload.SysbenchSteps.resolve(steps, tableSize, rangeSize, randType).names();
    }
  }

  /** How load is applied. */
  public enum ModeKind {
    CLOSED, OPEN, BURST;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * @param kind closed, open or burst
   * @param clients connections (closed and open loop)
   * @param rate open loop: tasks per second
   * @param schedule open loop: arrival process
   * @param burst burst: tasks submitted at once
   * @param pool burst: pool size
   * @param poolTimeout burst: longest wait for a pooled connection
   */
  public record Mode(ModeKind kind, int clients, double rate, ArrivalSchedule.Kind schedule, int burst, int pool,
      Duration poolTimeout) {

    public static Mode closed(int clients) {
      return new Mode(ModeKind.CLOSED, clients, 0, null, 0, 0, null);
    }

    public static Mode open(int clients, double rate, ArrivalSchedule.Kind schedule) {
      return new Mode(ModeKind.OPEN, clients, rate, schedule, 0, 0, null);
    }

    public static Mode burst(int burst, int pool, Duration poolTimeout) {
      return new Mode(ModeKind.BURST, 0, 0, null, burst, pool, poolTimeout);
    }

    /** Connections the load holds at once. */
    public int connections() {
      return kind == ModeKind.BURST ? pool : clients;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a config with loadgen's defaults for whatever is not set. */
  /** Starts from {@link LoadgenDefaults}. */
  public static final class Builder {
    private Target target = new Embedded(LoadgenDefaults.PG_MAJOR, Map.of(), null);
    private String workloadName = LoadgenDefaults.WORKLOAD;
    private List<String> steps = List.of();
    private double scale = LoadgenDefaults.SCALE;
    private Duration thinkMin = Duration.ZERO;
    private Duration thinkMax = Duration.ZERO;
    private int tables = LoadgenDefaults.TABLES;
    private int tableSize = LoadgenDefaults.TABLE_SIZE;
    private int rangeSize = LoadgenDefaults.RANGE_SIZE;
    private RandType randType = LoadgenDefaults.RAND_TYPE;
    private List<String> scripts = List.of();
    private Map<String, Long> defines = Map.of();
    private Mode mode = Mode.closed(LoadgenDefaults.CLIENTS);
    private Long tasks;
    private Duration duration;
    private Duration readDuration;
    private Duration writeDuration;
    private Duration warmup = LoadgenDefaults.WARMUP;
    private Long randomSeed;
    private Path outDir;
    private String runId;
    private SortedMap<String, String> labels = new TreeMap<>();
    private boolean skipLoad;
    private boolean recordTasks = true;
    private String tasksFile;
    private Duration connectTimeout = LoadgenDefaults.CONNECT_TIMEOUT;
    private Duration queryTimeout = LoadgenDefaults.QUERY_TIMEOUT;
    private Duration maxOutage = LoadgenDefaults.MAX_OUTAGE;
    private Map<String, String> environment = System.getenv();
    private BetweenSteps betweenSteps = BetweenSteps.NONE;
    private StepBarrier stepBarrier = StepBarrier.NONE;
    private double handicapStretch;
    private Integer profileHz;

    public Builder target(Target value) {
      target = value;
      return this;
    }

    public Builder workload(String name) {
      workloadName = name;
      return this;
    }

    public Builder steps(List<String> value) {
      steps = value;
      return this;
    }

    public Builder scale(double value) {
      scale = value;
      return this;
    }

    public Builder thinkTime(Duration min, Duration max) {
      thinkMin = min;
      thinkMax = max;
      return this;
    }

    public Builder tables(int value) {
      tables = value;
      return this;
    }

    public Builder tableSize(int value) {
      tableSize = value;
      return this;
    }

    public Builder rangeSize(int value) {
      rangeSize = value;
      return this;
    }

    public Builder randType(RandType value) {
      randType = value;
      return this;
    }

    public Builder scripts(List<String> value) {
      scripts = value;
      return this;
    }

    public Builder defines(Map<String, Long> value) {
      defines = value;
      return this;
    }

    public Builder mode(Mode value) {
      mode = value;
      return this;
    }

    public Builder tasks(Long value) {
      tasks = value;
      return this;
    }

    public Builder duration(Duration value) {
      duration = value;
      return this;
    }

    /** Measured time of each read step (sysbench), instead of {@link #duration}. */
    public Builder readDuration(Duration value) {
      readDuration = value;
      return this;
    }

    /** Measured time of each write step (sysbench), instead of {@link #duration}. */
    public Builder writeDuration(Duration value) {
      writeDuration = value;
      return this;
    }

    public Builder warmup(Duration value) {
      warmup = value;
      return this;
    }

    public Builder randomSeed(Long value) {
      randomSeed = value;
      return this;
    }

    public Builder outDir(Path value) {
      outDir = value;
      return this;
    }

    public Builder runId(String value) {
      runId = value;
      return this;
    }

    public Builder labels(Map<String, String> value) {
      labels = new TreeMap<>(value);
      return this;
    }

    public Builder skipLoad(boolean value) {
      skipLoad = value;
      return this;
    }

    public Builder recordTasks(boolean value) {
      recordTasks = value;
      return this;
    }

    /** {@code tasks.csv} or {@code tasks.csv.gz} (the compact form); null: tasks.csv. */
    public Builder tasksFile(String value) {
      tasksFile = value;
      return this;
    }

    public Builder connectTimeout(Duration value) {
      connectTimeout = value;
      return this;
    }

    public Builder queryTimeout(Duration value) {
      queryTimeout = value;
      return this;
    }

    public Builder maxOutage(Duration value) {
      maxOutage = value;
      return this;
    }

    public Builder betweenSteps(BetweenSteps value) {
      betweenSteps = value;
      return this;
    }

    public Builder stepBarrier(StepBarrier value) {
      stepBarrier = value;
      return this;
    }

    /** A handicap of known size on every task ({@code --handicap-stretch}), for calibration only. */
    public Builder handicapStretch(double value) {
      handicapStretch = value;
      return this;
    }

    /** {@code --profile}: the embedded server's CPU profile per step at this rate; null: none. */
    public Builder profileHz(Integer value) {
      profileHz = value;
      return this;
    }

    public Builder environment(Map<String, String> value) {
      environment = value;
      return this;
    }

    public LoadgenConfig build() {
      return new LoadgenConfig(target,
          new WorkloadSpec(workloadName, steps, scale, thinkMin, thinkMax, tables, tableSize, rangeSize, randType,
              scripts, defines, readDuration, writeDuration),
          mode, tasks, duration, warmup, randomSeed, outDir, runId, labels, skipLoad, recordTasks, tasksFile, connectTimeout,
          queryTimeout, maxOutage, environment, betweenSteps, stepBarrier,
          handicapStretch, profileHz);
    }
  }
}
