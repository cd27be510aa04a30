package dev.benchlake.app.study.duet;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.StdioBarrier;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One round of a duet: both sides' loadgen runs at the same moment, each in a process of its own on
 * its CPU set (the study's, kept from pair to pair: {@link DuetSessions}). A Java thread cannot be
 * pinned, so the side's whole client is a JVM; an embedded server inherits its set (pg_ctl forks
 * the postmaster, the postmaster every backend), a server by URL is not pinned at all. With {@link
 * CpuSwap#PER_ROUND} the side's JVM was started under {@code taskset -c}; with {@link
 * CpuSwap#IN_WINDOW} it joined a cgroup cpuset group first thing, and {@link InWindowCpuSwap} swaps
 * the two groups' sets inside every step, or (by affinity, {@link SwapMover}) it was started under
 * taskset and the swap moves each of its threads and its server's processes. Each side waits
 * before every step ({@code --barrier stdio}); once both are ready this coordinator gives both the
 * same start instant, a little ahead, so that the side that was slower to get there (a JVM start,
 * a server start, loading the tables, a table-health snapshot) shifts neither side's window: both
 * count the step over the same interval, which each manifest records ({@code step_windows}).
 *
 * <p>Each side's stdout (but the barrier's lines) goes to {@code LOGS/<run dir name>.log}.
 */
public final class DuetPair {
  /**
   * How far ahead of "both ready" a step starts: time for both processes, each blocked reading its
   * stdin, to read the line (a side that reads it late only loses part of its warm-up: the window
   * counts from this instant). Paid before every step of every round.
   */
  static final long LEAD_NS = TimeUnit.MILLISECONDS.toNanos(100);
  private final Path logs;
  private final PrintWriter log;
  private final SwapRule swap;
  private final DuetSessions sessions;

  /** @param sessions the study's sides, kept from pair to pair (used by the in-window swap) */
  public DuetPair(Path logs, PrintWriter log, SwapRule swap, DuetSessions sessions) {
    this.logs = logs;
    this.log = log;
    this.swap = swap;
    this.sessions = sessions;
  }

  /** Both sides' finished runs, and how far apart they became ready before each step. */
  public record Outcome(RunManifest a, RunManifest b, long largestReadyGapNs) {}

  /**
   * Warm-up passes of a kind of pair (a workload and its steps) that the study's side processes run
   * before its first measured one: a client JVM's hot code is compiled only after seconds of load,
   * and before that the client competes with its server differently (docs/designs.md). So the passes
   * record their tasks, as a measured run does (to a folder deleted after each), and are long enough
   * for that: three passes of the quickstart's 2.5-s steps. A study of several kinds warms them in turn, pass by pass
   * (the study's runner), as its rounds will run them.
   */
  public static final int WARM_UP_PASSES = 3;

  /** A kind of pair: its workload and steps ({@code sysbench-point-select-read-only}), what a warm-up is for. */
  public static String kind(SideRun a) {
    LoadgenConfig.WorkloadSpec workload = a.config().workload();
    return workload.name() + (workload.steps().isEmpty() ? "" : "-" + String.join("-", workload.steps()));
  }

  /**
   * Runs both sides to the end, each on the study's process of its CPU set ({@link DuetSessions}),
   * after the warm-up passes when the processes have not been warmed up for this kind of pair yet.
   *
   * @throws BadInputException when a side refused its input (exit 2: e.g. a setting its server refused)
   * @throws IllegalStateException when a side failed or did not complete
   */
  public Outcome run(SideRun a, SideRun b) throws IOException, InterruptedException {
    if (sessions.needsWarmUp(a.config().workload())) {
      for (int pass = 1; pass <= WARM_UP_PASSES; pass++) {
        warmUp(a, b, pass);
      }
    }
    a = labelled(a);
    b = labelled(b);
    return run(a, b, sessions.sides(a, b, swap), logs.resolve(a.config().outDir().getFileName() + ".log"),
        logs.resolve(b.config().outDir().getFileName() + ".log"));
  }

  /** One warm-up pass of the pair {@code a}, {@code b}: run as measured, its runs deleted after. */
  public void warmUp(SideRun a, SideRun b, int pass) throws IOException, InterruptedException {
    a = labelled(a);
    b = labelled(b);
    String kind = kind(a);
    log.println(String.format(Locale.ROOT, "    warming up the sides' JVMs: %s, pass %d of %d (not kept)", kind, pass,
        WARM_UP_PASSES));
    log.flush();
    String name = "warm-up-" + kind + "-" + pass;
    Path scratch = logs.resolve(name);
    try {
      run(new SideRun(a.name(), a.config().forWarmUp(scratch.resolve("a")), a.cpus()),
          new SideRun(b.name(), b.config().forWarmUp(scratch.resolve("b")), b.cpus()),
          sessions.sides(a, b, swap),
          logs.resolve(name + "-a.log"), logs.resolve(name + "-b.log"));
    } finally {
      deleteTree(scratch);
    }
  }

  private SideRun labelled(SideRun side) {
    return labelled(side, swap);
  }

  /** The side with the swap's labels: its mode, and its period and mover where it swaps inside the window. */
  static SideRun labelled(SideRun side, SwapRule swap) {
    LoadgenConfig config = side.config().withLabel(SwapRule.MODE_LABEL, swap.mode().id());
    if (swap.mode() == CpuSwap.IN_WINDOW) {
      config = config.withLabel(SwapRule.PERIOD_LABEL, swap.periodMs()).withLabel(SwapRule.MOVER_LABEL,
          swap.mover().id());
    }
    return new SideRun(side.name(), config, side.cpus());
  }

  private Outcome run(SideRun a, SideRun b, DuetSessions.Sides sides, Path logA, Path logB)
      throws IOException, InterruptedException {
    Files.createDirectories(logs);
    SideProcess pa = sides.a();
    SideProcess pb = sides.b();
    DuetSessions.Mover groups = sides.mover();
    long largestGapNs = 0;
    long warmupNs = a.config().warmup().toNanos();
    boolean[] bFirst = new boolean[1];
    long[] threads = new long[2]; // threads moved, moves (by affinity)
    InWindowCpuSwap swapper = groups == null ? null : new InWindowCpuSwap(a.cpus(), b.cpus(), (setA, setB) -> {
      // Between the two moves both sides share one set: which side moves first alternates, so
      // that neither is always the one that waits on the other's CPU.
      int moved = sessions.move(() -> bFirst[0] ? groups.b(setB) + groups.a(setA) : groups.a(setA) + groups.b(setB));
      bFirst[0] = !bFirst[0];
      threads[0] += moved;
      threads[1]++;
    }, () -> sessions.move(() -> { // both sides on their new sets: not timed as a move
      groups.settle();
      return 0;
    }), swap.period().toNanos());
    try (swapper) {
      pa.begin(a, logA);
      pb.begin(b, logB);
      // The side whose run ended first: when a side fails, its error is the one to report, not
      // the other side's "stopped before step N".
      boolean bEndedFirst = false;
      while (true) {
        long waitStartNs = System.nanoTime();
        SideProcess.Arrival aa = pa.nextReady();
        SideProcess.Arrival ab = aa.ended() ? null : pb.nextReady();
        if (aa.ended() || ab.ended()) {
          // A side's run ended: at the end of its steps (the other's ends too), or it failed (the
          // other, waiting behind the barrier, cannot run the step alone: finish stops it).
          bEndedFirst = !aa.ended();
          if (!(bEndedFirst ? ab : aa).runDone()) {
            // Its process ended (it failed, or was killed): the other may be in a step that lasts
            // minutes, which nothing will use; it stops now.
            (bEndedFirst ? pa : pb).abort();
          }
          break;
        }
        StdioBarrier.Ready ra = aa.ready().get();
        StdioBarrier.Ready rb = ab.ready().get();
        if (!ra.equals(rb)) {
          pa.stopRun();
          pb.stopRun();
          throw new IllegalStateException("the sides reached different steps: a " + ra + ", b " + rb);
        }
        long gapNs = ab.atNs() - aa.atNs();
        largestGapNs = Math.max(largestGapNs, Math.abs(gapNs));
        if (groups != null) {
          groups.lookUp(); // the servers run now: not in the window's first move (and before the go instant)
        }
        long go = EpochClock.nowNs() + LEAD_NS;
        if (swapper != null) {
          swapper.throwIfFailed();
          swapper.alignTo(go + warmupNs);
        }
        pa.go(ra.index(), go);
        pb.go(ra.index(), go);
        log.println(String.format(Locale.ROOT, "    both ready for %-30s (b %+.0f ms after a; waited %.1f s in all)",
            ra.step(), gapNs / 1e6, (System.nanoTime() - waitStartNs) / 1e9));
        log.flush();
      }
      RunManifest mb = bEndedFirst ? pb.finish() : null;
      RunManifest ma = pa.finish();
      mb = mb != null ? mb : pb.finish();
      if (swapper != null) {
        swapper.close();
        swapper.throwIfFailed();
        log.println("    " + swapper.summary(swap.mover() == SwapMover.CGROUP ? "one write per side's group"
            : String.format(Locale.ROOT, "%.0f threads and processes on average (sched_setaffinity), a server's "
                + "tree not confirmed whole %d times (its postmaster busy %d ms)",
                threads[1] == 0 ? 0.0 : (double) threads[0] / threads[1], groups.unsettled(),
                TimeUnit.NANOSECONDS.toMillis(AffinityMover.SETTLE_NS))));
        log.flush();
        ma = withSwaps(ma, swapper, a);
        mb = withSwaps(mb, swapper, b);
      }
      return new Outcome(ma, mb, largestGapNs);
    }
  }

  /**
   * The side's manifest with the swap's figures per step ({@code step_cpu_swaps}), rewritten in its
   * run folder: only the coordinator timed the moves, and the side had finished its run before the
   * last of them was counted. The same figures go to both sides' manifests (one move moves both).
   */
  private static RunManifest withSwaps(RunManifest manifest, InWindowCpuSwap swapper, SideRun side) throws IOException {
    RunManifest with = manifest.withStepCpuSwaps(swapper.perStep(manifest.stepWindows()));
    with.writeAtomically(RunDirectory.manifest(side.config().outDir()));
    return with;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
