package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * A duet study's side processes, kept from pair to pair: one {@link SideProcess} (a loadgen JVM in
 * session mode) per CPU set, for the whole study. In each pair, the side whose round starts on a set
 * runs on that set's process, so that each JVM stays on its own CPUs whichever side it serves; with
 * the in-window swap by cgroups the process is in a cgroup cpuset group of its set (which the pair's
 * swap moves, and which is set back before the next pair), else {@code taskset} pinned it at its
 * start (and the in-window swap by affinity moves its threads and its servers', set back likewise).
 *
 * <p>Why keep them. A JVM's start and its JIT's warm-up were paid by both sides in every pair, on
 * the side's one CPU of a 2-core machine; and a client measured in its JVM's first seconds is in
 * another regime than later (docs/designs.md), so each round measured the client's warm-up as much
 * as the server. Kept JVMs are warmed once ({@link #needsWarmUp}), and every round
 * is then measured with the client in one state.
 *
 * <p>Why by CPU set and not by side. Whatever fixed difference there is between the two JVMs (code
 * their JIT compiled differently) goes with the CPU set, which every round swaps between the sides
 * and which the paired analysis fits (the crossover): it cannot pass for a difference of the sides.
 * The servers are not kept: each run starts its own, as before, so runs stay independent replicates.
 */
public final class DuetSessions implements AutoCloseable {
  /** A CPU set's process, and its cgroup group (null: pinned by taskset). */
  private record Slot(CpuList cpus, SideProcess process, CgroupCpusets.Group group) {}

  /** The two processes of a pair: side a's and side b's, and how to move them inside a window (null: they are not moved). */
  record Sides(SideProcess a, SideProcess b, Mover mover) {}

  /**
   * Moves side a's and side b's processes to the given sets (the in-window swap): each returns how
   * many threads it moved, or {@link #WHOLE_GROUP} where one write moved the side's group.
   */
  interface Mover {
    int WHOLE_GROUP = -1;

    /** Finds what a move will move, before a step's window (by affinity: the sides' postmasters); nothing by groups. */
    default void lookUp() {}

    /**
     * After both sides have moved: lists again a server's tree that a move listed while its
     * postmaster ran ({@link AffinityMover#settle}); nothing by groups, whose write moves a fork too.
     */
    default void settle() {}

    /** Moves that left a server's tree listed while its postmaster ran ({@link AffinityMover#unsettled}); none by groups. */
    default long unsettled() {
      return 0;
    }

    int a(CpuList cpus);

    int b(CpuList cpus);
  }

  private final Path logs;
  private final Map<CpuList, Slot> slots = new LinkedHashMap<>();
  private final Set<String> warmed = new HashSet<>();
  private final List<dev.benchlake.loadgen.LoadgenConfig.WorkloadSpec> warmedSteps = new ArrayList<>();
  private SwapRule swap;
  private boolean closed;
  /**
   * The in-window swap's moves as a sequence count ({@link #move}): odd while a move runs, even
   * between moves. A move sets one side, then the other, thread by thread, so a reading of the
   * sides' CPU sets taken across one sees half of it; whoever reads them from outside (a /proc
   * watcher) reads this before and after, and the same even value twice means no move crossed it.
   */
  private final AtomicLong moveSequence = new AtomicLong();

  /** @param logs where the sides' logs go: {@code logs/} of the study's folder */
  public DuetSessions(Path logs) {
    this.logs = logs;
  }

  /** The processes of the pair {@code a}, {@code b}, each on its set: started at the first pair that uses the set. */
  Sides sides(SideRun a, SideRun b, SwapRule swap) throws IOException {
    if (this.swap != null && (this.swap.mode() != swap.mode() || this.swap.mover() != swap.mover())) {
      throw new IllegalStateException("a study's pairs swap CPU sets one way: " + describe(this.swap) + ", not "
          + describe(swap));
    }
    this.swap = swap;
    Slot sa = slot(a.cpus());
    Slot sb = slot(b.cpus());
    if (swap.mode() != CpuSwap.IN_WINDOW) {
      return new Sides(sa.process(), sb.process(), null);
    }
    if (swap.mover() == SwapMover.AFFINITY) {
      AffinityMover ma = new AffinityMover(sa.process().pid(), sa.process()::postmasters);
      AffinityMover mb = new AffinityMover(sb.process().pid(), sb.process()::postmasters);
      // The last pair's swap may have left the processes on each other's sets.
      ma.moveTo(sa.cpus());
      mb.moveTo(sb.cpus());
      AffinityMover.settle(List.of(ma, mb), AffinityMover.SETTLE_NS);
      return new Sides(sa.process(), sb.process(), new Mover() {
        @Override
        public void lookUp() {
          ma.lookUp();
          mb.lookUp();
        }

        @Override
        public void settle() {
          AffinityMover.settle(List.of(ma, mb), AffinityMover.SETTLE_NS);
        }

        @Override
        public long unsettled() {
          return ma.unsettled() + mb.unsettled();
        }

        @Override
        public int a(CpuList cpus) {
          return ma.moveTo(cpus);
        }

        @Override
        public int b(CpuList cpus) {
          return mb.moveTo(cpus);
        }
      });
    }
    // The last pair's swap may have left the groups on each other's sets.
    sa.group().cpus(sa.cpus());
    sb.group().cpus(sb.cpus());
    return new Sides(sa.process(), sb.process(), new Mover() {
      @Override
      public int a(CpuList cpus) {
        sa.group().cpus(cpus);
        return WHOLE_GROUP;
      }

      @Override
      public int b(CpuList cpus) {
        sb.group().cpus(cpus);
        return WHOLE_GROUP;
      }
    });
  }

  /** Runs one move of the in-window swap (both sides), counted in {@link #moveSequence()}; returns its result. */
  int move(IntSupplier bothSides) {
    moveSequence.incrementAndGet();
    try {
      return bothSides.getAsInt();
    } finally {
      moveSequence.incrementAndGet();
    }
  }

  /** Moves begun and ended so far: odd while one runs (see the field). */
  long moveSequence() {
    return moveSequence.get();
  }

  private static String describe(SwapRule swap) {
    return swap.mode().id() + (swap.mover() == null ? "" : " by " + swap.mover().id());
  }

  /**
   * Whether the processes are still to be warmed up for runs like {@code kind} (a workload and its
   * steps): true once per kind, the first time it is asked.
   */
  public boolean needsWarmUp(String kind) {
    return warmed.add(kind);
  }

  /**
   * The same for a pair's workload: false also where the processes were warmed up for the same
   * workload over steps that include all of these (a study run until decided runs fewer steps once
   * some are decided: the same code, warm already).
   */
  public boolean needsWarmUp(dev.benchlake.loadgen.LoadgenConfig.WorkloadSpec workload) {
    List<String> steps = workload.steps();
    boolean covered = warmedSteps.stream().anyMatch(w -> w.name().equals(workload.name())
        && w.stepNames().containsAll(workload.stepNames()));
    if (covered) {
      return false;
    }
    warmedSteps.add(workload);
    return needsWarmUp(workload.name() + (steps.isEmpty() ? "" : "-" + String.join("-", steps)));
  }

  private synchronized Slot slot(CpuList cpus) throws IOException {
    if (closed) {
      throw new IllegalStateException("the study's sides were ended (the study is being stopped)");
    }
    Slot slot = slots.get(cpus);
    if (slot != null) {
      return slot;
    }
    if (slots.size() == 2) {
      throw new IllegalStateException("a duet has two CPU sets, " + slots.keySet() + ", not " + cpus);
    }
    String name = slots.isEmpty() ? "one" : "two";
    CgroupCpusets.Group group = null;
    if (swap.mover() == SwapMover.CGROUP) {
      CgroupCpusets.Found found = CgroupCpusets.forThisProcess();
      CgroupCpusets cpusets = found.cpusets().orElseThrow(() -> new IllegalStateException(
          "the in-window CPU swap needs cgroup cpuset groups, and " + found.why()));
      group = cpusets.create(name, cpus);
    }
    try {
      slot = new Slot(cpus, new SideProcess("on CPUs " + cpus, SideCommand.command(cpus, group == null ? null : group.dir(),
          logs.toAbsolutePath().getParent()),
          logs.resolve("side-" + name + ".err")), group);
    } catch (IOException | RuntimeException e) {
      if (group != null) {
        group.close();
      }
      throw e;
    }
    slots.put(cpus, slot);
    return slot;
  }

  /**
   * Ends every process (a run under way ends as interrupted; a server a dead side left running is
   * stopped), then removes their groups. Safe from another thread (a study's shutdown hook) while
   * the sides are in use: what they are doing then fails, and no new side starts.
   */
  @Override
  public void close() throws IOException, InterruptedException {
    List<Slot> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(slots.values());
      slots.clear();
    }
    Exception first = null;
    for (Slot s : all) {
      try {
        s.process().close();
      } catch (IOException | InterruptedException | RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    for (Slot s : all) {
      try {
        if (s.group() != null) {
          s.group().close();
        }
      } catch (IOException | RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    if (first instanceof IOException io) {
      throw io;
    }
    if (first instanceof InterruptedException ie) {
      throw ie;
    }
    if (first != null) {
      throw (RuntimeException) first;
    }
  }
}
