package dev.benchlake.loadgen.run;

import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.Database;
import dev.benchlake.loadgen.workload.Step;
import java.util.SplittableRandom;

/**
 * Everything the drivers share while running one step: the step, its plan and time window, where
 * records go, and the stop switch.
 */
public final class StepRun {
  final Step step;
  final int stepIndex;
  final StepPlan plan;
  final RunClock clock;
  final RunControl control;
  final StepStats stats;
  final TaskSink sink;
  final Database database;
  private final long seed;
  private volatile long startNs;
  /** Null for a step that starts as it is made. */
  private final StartGate gate;
  private final String[] taskNames;

  /** A step starting now. */
  public StepRun(Step step, int stepIndex, StepPlan plan, RunClock clock, RunControl control, StepStats stats,
      TaskSink sink, Database database, long seed) {
    this(step, stepIndex, plan, clock, control, stats, sink, database, seed, clock.now(), null);
  }

  /**
   * A step that starts later, at the instant {@link #start} gives (e.g. a barrier's, so that a
   * duet's sides share the step's window): its driver sets up first (connects, prepares, fills a
   * pool) and waits at a gate ({@link #awaitStart}), so that none of that falls inside the window.
   *
   * @param parties how many of the driver's threads arrive at the gate ({@link Driver#startParties()})
   */
  public static StepRun gated(Step step, int stepIndex, StepPlan plan, RunClock clock, RunControl control,
      StepStats stats, TaskSink sink, Database database, long seed, int parties) {
    return new StepRun(step, stepIndex, plan, clock, control, stats, sink, database, seed, Long.MAX_VALUE,
        new StartGate(parties));
  }

  /** Whether the step waits for {@link #start}. */
  public boolean gated() {
    return gate != null;
  }

  /**
   * A driver's thread, set up: waits until the step starts (at once for a step that is not gated).
   * Its warm-up and measurement are counted from the start instant.
   */
  void awaitStart() throws InterruptedException {
    if (gate != null) {
      gate.arriveAndAwait(this);
    }
  }

  /**
   * Waits until the driver's threads are set up and waiting at the gate.
   *
   * @return whether they are; false after {@code millis}
   */
  public boolean awaitSetUp(long millis) throws InterruptedException {
    return gate == null || gate.awaitSetUp(millis);
  }

  /** Starts a gated step at {@code startNs} (clock time; it may lie ahead): opens the gate. */
  public void start(long startNs) {
    if (gate == null) {
      throw new IllegalStateException("the step started when it was made");
    }
    this.startNs = startNs;
    gate.open();
  }

  private StepRun(Step step, int stepIndex, StepPlan plan, RunClock clock, RunControl control, StepStats stats,
      TaskSink sink, Database database, long seed, long startNs, StartGate gate) {
    this.step = step;
    this.stepIndex = stepIndex;
    this.plan = plan;
    this.clock = clock;
    this.control = control;
    this.stats = stats;
    this.sink = sink;
    this.database = database;
    this.seed = seed;
    this.startNs = startNs;
    this.gate = gate;
    this.taskNames = step.taskNames().toArray(new String[0]);
  }

  public Step step() {
    return step;
  }

  public RunClock clock() {
    return clock;
  }

  public long startNs() {
    return startNs;
  }

  public StepPlan plan() {
    return plan;
  }

  /** Tasks intended to start before this are warm-up. */
  public long warmupEndNs() {
    return startNs + plan.warmupNs();
  }

  /** A timed step admits no task intended to start at or after this. */
  public long endNs() {
    return plan.timed() ? warmupEndNs() + plan.durationNs() : Long.MAX_VALUE;
  }

  void record(TaskRecord r) {
    stats.record(r);
    sink.accept(r);
  }

  /**
   * The parameter stream of one client (or burst slot): a pure function of the run's seed, the
   * step, the client and {@code salt} (the burst number), so a run with the same seed draws the same
   * parameters per client.
   */
  SplittableRandom random(int clientId, long salt) {
    long h = mix(seed ^ mix(stepIndex + 0x9E3779B97F4A7C15L * (clientId + 1L)) ^ mix(salt * 0xBF58476D1CE4E5B9L + 7));
    return new SplittableRandom(h);
  }

  /** SplitMix64's finaliser. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The step name a task is recorded under. */
  String taskName(int task) {
    return taskNames[task];
  }
}
