package dev.benchlake.loadgen;

import dev.benchlake.core.Labels;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.LoadgenConfig.ModeKind;
import dev.benchlake.loadgen.run.BurstDriver;
import dev.benchlake.loadgen.run.ClosedLoopDriver;
import dev.benchlake.loadgen.run.Driver;
import dev.benchlake.loadgen.run.HandicapStretch;
import dev.benchlake.loadgen.run.OpenLoopDriver;
import dev.benchlake.loadgen.run.StepPlan;
import dev.benchlake.loadgen.db.EmbeddedBinaries;
import dev.benchlake.loadgen.db.JdbcTarget;
import dev.benchlake.loadgen.db.EmbeddedSettings;
import dev.benchlake.loadgen.workload.Script;
import dev.benchlake.loadgen.workload.ScriptWorkload;
import dev.benchlake.loadgen.workload.SelectUpdateWorkload;
import dev.benchlake.loadgen.workload.MytoolsStep;
import dev.benchlake.loadgen.workload.Step;
import dev.benchlake.loadgen.workload.SysbenchStep;
import dev.benchlake.loadgen.workload.SysbenchSteps;
import dev.benchlake.loadgen.workload.SysbenchWorkload;
import dev.benchlake.loadgen.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A validated {@link LoadgenConfig}: the workload built, the driver chosen, the step plans fixed:
 * {@code stepPlan} from {@code --tasks}/{@code --duration} (null when {@code --read-duration} and
 * {@code --write-duration} replace it), {@code readPlan}/{@code writePlan} what the read and the
 * write steps run ({@link #stepPlan(Step)}). Every check a user can fail happens
 * here, before anything is started or written.
 */
record RunPlan(LoadgenConfig config, Workload workload, Driver driver, StepPlan stepPlan, StepPlan readPlan,
    StepPlan writePlan) {
  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
  private static final Duration MIN_POOL_TIMEOUT = Duration.ofMillis(250);

  static RunPlan of(LoadgenConfig c) {
    Workload workload = workload(c.workload());
    Driver driver = driver(c.mode(), stretch(c));
    boolean byKind = c.workload().readDuration() != null || c.workload().writeDuration() != null;
    if (byKind && !(workload instanceof SysbenchWorkload)) {
      throw new BadInputException("--read-duration and --write-duration go with --workload sysbench");
    }
    StepPlan plan = stepPlan(c, c.workload().readDuration() != null && c.workload().writeDuration() != null);
    StepPlan readPlan = kindPlan(c, "--read-duration", c.workload().readDuration(), plan);
    StepPlan writePlan = kindPlan(c, "--write-duration", c.workload().writeDuration(), plan);
    if (c.mode().kind() != ModeKind.CLOSED) {
      for (Step step : workload.steps()) {
        if (step.tasksPerClient().isPresent()) {
          throw new BadInputException("step " + step.name() + " is one pass per client (each client scans every table"
              + " once, as the study counts it): run it in a closed loop (--clients), not with --rate or --burst");
        }
      }
    }
    if (c.recordTasks()) {
      if (c.outDir() == null) {
        throw new BadInputException("--out DIR is required: where the run directory goes");
      }
      requireEmptyOrAbsent(c.outDir());
    }
    if (c.runId() != null && !RUN_ID.matcher(c.runId()).matches()) {
      throw new BadInputException("--run-id '" + c.runId() + "': use letters, digits, '_', '.', '-' (128 at most)");
    }
    try {
      Labels.copyOf(c.labels());
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--label: " + e.getMessage(), e);
    }
    positive("--connect-timeout", c.connectTimeout());
    positive("--query-timeout", c.queryTimeout());
    positive("--max-outage", c.maxOutage());
    if (c.target() instanceof LoadgenConfig.Embedded embedded) {
      checkEmbedded(embedded);
    } else if (c.target() instanceof LoadgenConfig.External external) {
      if (external.jdbcUrl() == null || external.jdbcUrl().isBlank()) {
        throw new BadInputException("--jdbc-url is empty");
      }
      JdbcTarget.checkUrl(external.jdbcUrl());
    }
    return new RunPlan(c, workload, driver, plan, readPlan, writePlan);
  }

  /**
   * What an embedded server needs that a user gives, checked without starting it: binaries of its
   * major, settings loadgen does not reserve, and a {@code --pg-dir} that is a folder (or can be made
   * in one). A file there failed only when the server started, seconds into a study.
   */
  static void checkEmbedded(LoadgenConfig.Embedded embedded) {
    EmbeddedBinaries.discover().forMajor(embedded.major());
    embedded.settings().forEach(EmbeddedSettings::validate);
    if (embedded.parentDir() != null) {
      requireCreatableFolder("--pg-dir", embedded.parentDir());
    }
  }

  /** How long {@code step} runs: one pass for a step of fixed work per client, else its kind's plan. */
  StepPlan stepPlan(Step step) {
    if (step.tasksPerClient().isPresent()) {
      return StepPlan.onePass(step.tasksPerClient().getAsInt());
    }
    return step.usesWriteDuration() ? writePlan : readPlan;
  }

  /** The workload named by {@code --workload} (or a sysbench step name), with its steps. */
  static Workload workload(LoadgenConfig.WorkloadSpec w) {
    String name = w.name() == null ? (w.scripts().isEmpty() ? "" : ScriptWorkload.NAME) : w.name();
    if (!w.scripts().isEmpty() && !name.equals(ScriptWorkload.NAME)) {
      throw new BadInputException("--script runs your own SQL: use it without --workload (or with --workload script)");
    }
    switch (name) {
      case SelectUpdateWorkload.NAME -> {
        if (!w.steps().isEmpty() && !w.steps().equals(List.of(SelectUpdateWorkload.NAME))) {
          throw new BadInputException("--steps: select-update has one step, select-update");
        }
        if (!(w.scale() > 0) || w.scale() > 10_000) {
          throw new BadInputException("--scale must be above 0 and at most 10000, not " + w.scale());
        }
        if (w.thinkMin().isNegative() || w.thinkMax().compareTo(w.thinkMin()) < 0) {
          throw new BadInputException("--think-time MIN..MAX needs 0 <= MIN <= MAX");
        }
        return new SelectUpdateWorkload(w.scale(), w.thinkMin(), w.thinkMax());
      }
      case ScriptWorkload.NAME -> {
        if (w.scripts().isEmpty()) {
          throw new BadInputException("--workload script needs --script FILE[@WEIGHT]");
        }
        List<Script> scripts = new ArrayList<>();
        for (String s : w.scripts()) {
          scripts.add(Script.load(s, w.defines()));
        }
        return new ScriptWorkload(scripts, new TreeMap<>(w.defines()));
      }
      case SysbenchWorkload.NAME -> {
        if (w.steps().isEmpty()) {
          throw new BadInputException("--workload sysbench needs --steps, some of: " + String.join(", ", SysbenchStep.names())
              + ", or " + MytoolsStep.SET_NAME + " (the mytools version study's " + MytoolsStep.STUDY.size() + " steps; "
              + MytoolsStep.SET_2023 + ": the " + MytoolsStep.STUDY_2023.size() + " it ran in 2023)");
        }
        return sysbench(w, w.steps());
      }
      default -> {
        if (SysbenchStep.byName(name).isPresent()) {
          if (!w.steps().isEmpty() && !w.steps().equals(List.of(name))) {
            throw new BadInputException("--steps goes with --workload sysbench, not with a single step (" + name + ")");
          }
          return sysbench(w, List.of(name));
        }
        throw new BadInputException((name.isEmpty() ? "--workload is missing" : "unknown workload '" + name + "'")
            + "; known: select-update, sysbench (with --steps), script (with --script), or one of "
            + String.join(", ", SysbenchStep.names()));
      }
    }
  }

  private static Workload sysbench(LoadgenConfig.WorkloadSpec w, List<String> stepNames) {
    if (w.tables() < 1 || w.tables() > 1000) {
      throw new BadInputException("--tables must be 1..1000, not " + w.tables());
    }
    if (w.tableSize() < 1) {
      throw new BadInputException("--table-size must be at least 1, not " + w.tableSize());
    }
    if (w.rangeSize() < 1) {
      throw new BadInputException("--range-size must be at least 1, not " + w.rangeSize());
    }
    SysbenchSteps steps = SysbenchSteps.resolve(stepNames, w.tableSize(), w.rangeSize(), w.randType());
    if (w.tables() > 1 && steps.anyFirstTableOnly()) {
      throw new BadInputException("random-points and random-ranges use sbtest1 only (as sysbench's scripts); use --tables 1");
    }
    return new SysbenchWorkload(steps, w.tables(), w.tableSize(), w.rangeSize(), w.randType());
  }

  /**
   * {@code --handicap-stretch}: a share of 0..1, in a closed loop only (an open loop's or a burst's
   * latency counts its queue, which the stretch lengthens by more than its size); its label is
   * loadgen's own, never a user's.
   */
  static HandicapStretch stretch(LoadgenConfig c) {
    double h = c.handicapStretch();
    if (h == 0) {
      if (c.labels().containsKey(LoadgenConfig.HANDICAP_LABEL)) {
        throw new BadInputException("--label " + LoadgenConfig.HANDICAP_LABEL + " marks runs made with "
            + "--handicap-stretch: it is loadgen's own");
      }
      return HandicapStretch.NONE;
    }
    if (!(h > 0 && h <= HandicapStretch.MAX)) {
      throw new BadInputException("--handicap-stretch must be above 0 and at most " + LoadgenDefaults.number(
          HandicapStretch.MAX) + " (a share of each task's time), not " + h);
    }
    if (c.mode().kind() != ModeKind.CLOSED) {
      throw new BadInputException("--handicap-stretch goes with a closed loop (--clients): an open loop's or a "
          + "burst's latency counts its queue, which the stretch lengthens by more than its size");
    }
    return new HandicapStretch(h);
  }

  static Driver driver(LoadgenConfig.Mode m, HandicapStretch stretch) {
    if (m.kind() == ModeKind.BURST) {
      if (m.burst() < 1 || m.burst() > BurstDriver.MAX_BURST) {
        throw new BadInputException("--burst must be 1.." + BurstDriver.MAX_BURST + ", not " + m.burst());
      }
      if (m.pool() < 1 || m.pool() > 10_000) {
        throw new BadInputException("--pool must be 1..10000, not " + m.pool());
      }
      if (m.poolTimeout() == null || m.poolTimeout().compareTo(MIN_POOL_TIMEOUT) < 0) {
        throw new BadInputException("--pool-timeout must be at least 250ms (HikariCP's minimum)");
      }
      return new BurstDriver(m.burst(), m.pool(), m.poolTimeout());
    }
    if (m.clients() < 1 || m.clients() > 10_000) {
      throw new BadInputException("--clients must be 1..10000, not " + m.clients());
    }
    if (m.kind() == ModeKind.OPEN) {
      if (!(m.rate() > 0) || Double.isInfinite(m.rate())) {
        throw new BadInputException("--rate must be a number of tasks per second above 0, not " + m.rate());
      }
      return new OpenLoopDriver(m.clients(), m.rate(), m.schedule());
    }
    return new ClosedLoopDriver(m.clients(), stretch);
  }

  /** @param byKind whether both kinds have their own duration (then --duration is not needed) */
  private static StepPlan stepPlan(LoadgenConfig c, boolean byKind) {
    Long tasks = c.tasks();
    Duration duration = c.duration();
    if (tasks != null && duration != null) {
      throw new BadInputException("give --tasks or --duration, not both");
    }
    if (tasks != null && (c.workload().readDuration() != null || c.workload().writeDuration() != null)) {
      throw new BadInputException("give --tasks or --read-duration/--write-duration, not both");
    }
    if (c.warmup().isNegative()) {
      throw new BadInputException("--warmup must not be negative");
    }
    if (tasks == null && duration == null) {
      if (byKind) {
        return null;
      }
      if (c.mode().kind() != ModeKind.BURST) {
        throw new BadInputException("give --tasks N or --duration D (e.g. --duration 60s)"
            + (c.workload().readDuration() != null || c.workload().writeDuration() != null
                ? ", or both --read-duration and --write-duration" : ""));
      }
      tasks = (long) c.mode().burst();
    }
    if (tasks != null && tasks < 1) {
      throw new BadInputException("--tasks must be at least 1, not " + tasks);
    }
    if (duration != null) {
      positive("--duration", duration);
    }
    return new StepPlan(tasks, duration == null ? 0 : duration.toNanos(), c.warmup().toNanos());
  }

  /** The plan of one kind of step: its own duration, else the run's plan. */
  private static StepPlan kindPlan(LoadgenConfig c, String option, Duration own, StepPlan fallback) {
    if (own == null) {
      return fallback;
    }
    positive(option, own);
    return new StepPlan(null, own.toNanos(), c.warmup().toNanos());
  }

  private static void positive(String option, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new BadInputException(option + " must be above 0");
    }
  }

  /** @throws BadInputException when {@code dir} holds anything (a run must never overwrite another) */
  static void requireEmptyOrAbsent(Path dir) {
    requireCreatableFolder("--out", dir);
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new BadInputException("--out " + dir + " is not empty; give a new directory for each run");
      }
    } catch (IOException e) {
      throw new BadInputException("--out " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * @throws BadInputException when {@code dir} is a file, or is not there and its nearest ancestor
   *     that is there is no writable folder
   */
  static void requireCreatableFolder(String option, Path dir) {
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new BadInputException(option + " " + dir + " is a file, not a directory");
      }
      return;
    }
    Path ancestor = dir.toAbsolutePath().getParent();
    while (ancestor != null && !Files.exists(ancestor)) {
      ancestor = ancestor.getParent();
    }
    if (ancestor == null || !Files.isDirectory(ancestor) || !Files.isWritable(ancestor)) {
      throw new BadInputException(option + " " + dir + ": cannot create it (" + ancestor + " is not a writable directory)");
    }
  }
}
