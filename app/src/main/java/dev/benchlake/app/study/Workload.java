package dev.benchlake.app.study;

import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.LoadgenDefaults;
import dev.benchlake.loadgen.db.BetweenSteps;
import java.time.Duration;
import java.util.List;

/**
 * What a study's runs do, typed: a study names its workloads by value, never by a string that
 * falls through to a default, so a workload the code does not know cannot quietly run another.
 */
public sealed interface Workload permits Workload.Sysbench, Workload.SelectUpdate {
  /** The name in run folders, titles and the {@code pair} label ({@code select-update}, {@code sysbench}). */
  String id();

  /** {@code common} (target, folder, seed, labels) with this workload's options. */
  LoadgenConfig apply(LoadgenConfig.Builder common);

  /** One run of this workload: on {@code target}, its data drawn from {@code seed}, into {@code dir}. */
  default LoadgenConfig run(LoadgenConfig.Target target, long seed, java.nio.file.Path dir,
      java.util.Map<String, String> labels) {
    return apply(LoadgenConfig.builder().target(target).randomSeed(seed).outDir(dir).labels(labels));
  }

  /**
   * loadgen's sysbench-like steps.
   *
   * @param duration measured time of each step, unless both kinds have their own (then null)
   * @param readDuration measured time of the steps that only read, instead of {@code duration}
   * @param writeDuration measured time of the steps that write, instead of {@code duration}
   * @param betweenSteps what each side runs on its tables between steps, outside the measured windows
   */
  record Sysbench(List<String> steps, int tables, int tableSize, int clients, Duration duration,
      Duration readDuration, Duration writeDuration, Duration warmup, BetweenSteps betweenSteps) implements Workload {
    public Sysbench {
      steps = List.copyOf(steps);
      betweenSteps = betweenSteps == null ? BetweenSteps.NONE : betweenSteps;
      if (readDuration != null && writeDuration != null) {
        duration = null;
      }
    }

    /** Nothing between steps: maintenance left to each server. */
    public Sysbench(List<String> steps, int tables, int tableSize, int clients, Duration duration,
        Duration readDuration, Duration writeDuration, Duration warmup) {
      this(steps, tables, tableSize, clients, duration, readDuration, writeDuration, warmup, BetweenSteps.NONE);
    }

    /** Each kind of step with a time of its own ({@code duration} where none was given), as a version study records them. */
    public Sysbench byKind() {
      return new Sysbench(steps, tables, tableSize, clients, null, readDuration != null ? readDuration : duration,
          writeDuration != null ? writeDuration : duration, warmup, betweenSteps);
    }

    @Override
    public String id() {
      return "sysbench";
    }

    /** study.json's record of the steps and their tables and connections. */
    public void json(com.fasterxml.jackson.databind.node.ObjectNode root) {
      var stepsNode = root.putArray("steps");
      steps.forEach(stepsNode::add);
      root.put("tables", tables);
      root.put("table_size", tableSize);
      root.put("clients", clients);
    }

    @Override
    public LoadgenConfig apply(LoadgenConfig.Builder common) {
      return common
          .workload("sysbench")
          .steps(steps)
          .tables(tables)
          .tableSize(tableSize)
          .mode(LoadgenConfig.Mode.closed(clients))
          .duration(duration)
          .readDuration(readDuration)
          .writeDuration(writeDuration)
          .warmup(warmup)
          // Outside the measured windows: each side's maintenance is done before both start the next step.
          .betweenSteps(betweenSteps)
          .build();
    }
  }

  /**
   * The 2016 study's select-update, shaped for a duet side's one CPU.
   *
   * @param burst tasks submitted at once
   * @param pool connections
   * @param scale rows per thread = 100000 × scale
   * @param warmup the warm-up, long enough for one burst and not two
   * @param measuredBursts measured bursts per run, back to back after the warm-up: the run's figure
   *     is their pooled median
   */
  record SelectUpdate(int burst, int pool, double scale, Duration warmup, int measuredBursts) implements Workload {
    /**
     * 1200 tasks, 4 connections, scale 0.02, a 1 s warm-up and 2 measured bursts: kept-warm sides
     * halve the spread of a bigger burst; 20 connections on a side's one CPU made the burst a
     * scheduling lottery; a run's first burst on a fresh server carried most outlying rounds
     * (docs/designs.md).
     */
    public static final SelectUpdate DEFAULT = new SelectUpdate(1200, 4, 0.02, Duration.ofSeconds(1), 2);

    /** The tasks a run measures. */
    public long measuredTasks() {
      return (long) burst * measuredBursts;
    }

    @Override
    public String id() {
      return "select-update";
    }

    @Override
    public LoadgenConfig apply(LoadgenConfig.Builder common) {
      return common
          .workload("select-update")
          .scale(scale)
          .mode(LoadgenConfig.Mode.burst(burst, pool, LoadgenDefaults.POOL_TIMEOUT))
          .warmup(warmup)
          .tasks(measuredTasks())
          .build();
    }
  }
}
