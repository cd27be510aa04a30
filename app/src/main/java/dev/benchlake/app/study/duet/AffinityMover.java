package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Moves one duet side's processes to a CPU set without a cgroup: its embedded servers' postmasters
 * and every process they started (backends, background processes: each single-threaded), then every
 * thread of its JVM, each with {@code sched_setaffinity} ({@link ThreadAffinity}), which a user may
 * do to its own processes. The postmaster is not under the JVM ({@code pg_ctl} forks it and exits,
 * so its parent is init): it is found by its cluster's {@code postmaster.pid} ({@code servers}), and
 * again only once a move finds it gone. The JVM's own child processes ({@code pg_ctl}, {@code
 * initdb}: they last while a server starts, before a run's first step) are not looked for: reading
 * {@code /proc/PID/task/TID/children} for each of its some 40 threads took 3.6 ms a move on a loaded
 * 2-core VM, where the whole move otherwise takes about 1 ms.
 *
 * <p>A server's tree ends a move whole. The postmaster is moved before its children are listed, so
 * a backend it forks after its move inherits the new set. But a fork under way when the postmaster
 * was moved has copied its old set already, and its child shows in no listing until the fork ends:
 * that child ran a period on the other side's set (6 of 257 samples as a plain user at load 7,
 * docs/log.md). So the listing counts only when the postmaster was asleep ({@code S}) and did not
 * run from before it to after it ({@link Quiet}): a process that does not run neither forks nor
 * reaps, so its list of children was whole and stayed so. Until a listing is such, the tree is
 * listed again ({@link #settle}, once both sides have moved), after a pause that lets the postmaster
 * end its fork, for at most {@link #SETTLE_NS}; a child of a tree still busy then is on the new set
 * at the next move, as before.
 *
 * <p>A JVM's threads are listed again until a listing shows none not moved, since a thread started
 * by a thread not yet moved inherits the old set. What still escapes (a thread started after the
 * last listing by one moved before its move took effect) is on the new set at the next move: at
 * most one period (100 ms by default) late.
 */
final class AffinityMover {
  /** Listings of a process's threads before one that finds no new thread; a JVM starts few threads once warm. */
  private static final int MAX_LISTINGS = 4;
  /**
   * How long a move waits for a busy postmaster to sleep, so that its children's listing is whole:
   * a fifth of the default period, once both sides are on their new sets. A postmaster mostly sleeps
   * (its backends serve the clients); one still busy after this is left to the next move.
   */
  static final long SETTLE_NS = TimeUnit.MILLISECONDS.toNanos(20);
  /** The pause between listings of a busy tree: the postmaster may need this thread's CPU to end its fork. */
  private static final long SETTLE_PAUSE_NS = TimeUnit.MICROSECONDS.toNanos(200);

  private final long rootPid;
  private final Supplier<List<Long>> servers;
  /** Read by the coordinator's thread ({@link #lookUp}) and the swap's. */
  private volatile List<Long> knownServers = List.of();
  /** The trees the last move listed while their postmaster ran: for {@link #settle}. Used by the swap's thread alone. */
  private final List<Tree> pending = new ArrayList<>();
  /** Read after the swap's thread has ended. */
  private long unsettled;

  /**
   * @param rootPid the side's process (its JVM)
   * @param servers the postmasters of the side's embedded servers that run now
   */
  AffinityMover(long rootPid, Supplier<List<Long>> servers) {
    this.rootPid = rootPid;
    this.servers = servers;
  }

  /**
   * Looks up the side's postmasters now, if not known yet: at a step's "both ready", before the
   * window. The first lookup in a JVM took 386 ms (its classes, a logger, a JSON read; a plain user
   * at load 4.9), and made inside the first move it left both sides on one set that long
   * (docs/log.md, 2026-12-06, night).
   */
  void lookUp() {
    if (knownServers.isEmpty()) {
      knownServers = List.copyOf(servers.get());
    }
  }

  /**
   * Puts every task of the side on {@code cpus}; a server's tree listed while its postmaster ran is
   * listed again by {@link #settle}, once the other side has moved too.
   *
   * @return how many tasks were moved
   * @throws IllegalStateException when the kernel refused a move
   */
  int moveTo(CpuList cpus) {
    lookUp();
    int moved = 0;
    pending.clear();
    for (long postmaster : knownServers) {
      if (!ThreadAffinity.set(postmaster, cpus)) {
        knownServers = List.of(); // it has stopped: the next move looks again
        continue;
      }
      moved++;
      Tree tree = new Tree(postmaster, cpus, new java.util.HashSet<>());
      if (moveChildren(tree) == Listing.BUSY) {
        pending.add(tree);
      }
      moved += tree.moved().size();
    }
    return moved + moveThreads(rootPid, cpus);
  }

  /** A server's tree being moved: its postmaster, the set, the children moved so far. */
  private record Tree(long postmaster, CpuList cpus, Set<Long> moved) {}

  /**
   * Lists again, once, each tree the last move listed while its postmaster ran ({@link Quiet}),
   * moving the children found: true when every tree is whole now.
   */
  private boolean settleOnce() {
    pending.removeIf(tree -> moveChildren(tree) != Listing.BUSY);
    return pending.isEmpty();
  }

  /**
   * Ends the last moves of {@code movers}: lists each tree whose postmaster ran across its listing
   * again, after a pause that lets it end a fork, until it is whole or {@code settleNs} have passed
   * (then it is counted in {@link #unsettled}, and a child it forks then is caught at the next move).
   * Run after both sides have moved, so that a busy postmaster holds no side on the other's set.
   */
  static void settle(List<AffinityMover> movers, long settleNs) {
    long deadline = System.nanoTime() + settleNs;
    while (true) {
      boolean whole = true;
      for (AffinityMover mover : movers) {
        whole &= mover.settleOnce();
      }
      if (whole) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        for (AffinityMover mover : movers) {
          mover.unsettled += mover.pending.size();
          mover.pending.clear();
        }
        return;
      }
      LockSupport.parkNanos(SETTLE_PAUSE_NS);
    }
  }

  /** Trees a move left listed while their postmaster ran ({@link #SETTLE_NS} was not enough), over every move. */
  long unsettled() {
    return unsettled;
  }

  /** What a listing of a postmaster's children was. */
  private enum Listing {
    /** Whole: the postmaster slept across it ({@link Quiet}). */
    WHOLE,
    /** The postmaster ran across it: a child may be in a fork not ended yet. */
    BUSY,
    /** The postmaster has ended. */
    ENDED
  }

  /** Lists the tree's children once and moves those it has not moved yet. */
  private static Listing moveChildren(Tree tree) {
    Optional<Quiet> before = Quiet.of(tree.postmaster());
    for (long child : children(tree.postmaster(), tree.postmaster())) {
      if (!tree.moved().contains(child) && ThreadAffinity.set(child, tree.cpus())) {
        tree.moved().add(child);
      }
    }
    Optional<Quiet> after = Quiet.of(tree.postmaster());
    if (before.isEmpty() || after.isEmpty()) {
      return Listing.ENDED;
    }
    return before.get().asleepThrough(after.get()) ? Listing.WHOLE : Listing.BUSY;
  }

  /**
   * A process's state and its context switches ({@code /proc/PID/status}): asleep ({@code S},
   * waiting in a system call such as the postmaster's {@code epoll_wait}; a fork never waits so)
   * at two readings with the same counts, it did not run between them.
   */
  record Quiet(boolean asleep, long voluntarySwitches, long involuntarySwitches) {
    static Optional<Quiet> of(long pid) {
      String text;
      try {
        text = Files.readString(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII);
      } catch (IOException e) {
        return Optional.empty(); // it has ended
      }
      return Optional.of(parse(text));
    }

    static Quiet parse(String status) {
      boolean asleep = false;
      long voluntary = -1;
      long involuntary = -1;
      for (String line : status.split("\n")) {
        if (line.startsWith("State:")) {
          asleep = line.substring("State:".length()).strip().startsWith("S");
        } else if (line.startsWith("voluntary_ctxt_switches:")) {
          voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
          involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
        }
      }
      return new Quiet(asleep, voluntary, involuntary);
    }

    /** Whether the process slept from this reading to {@code later}'s. */
    boolean asleepThrough(Quiet later) {
      return asleep && later.asleep && voluntarySwitches >= 0 && voluntarySwitches == later.voluntarySwitches
          && involuntarySwitches == later.involuntarySwitches;
    }
  }

  /** Moves every thread of process {@code pid}. */
  private static int moveThreads(long pid, CpuList cpus) {
    Set<Long> tasks = new LinkedHashSet<>();
    int moved = 0;
    for (int listing = 0; listing < MAX_LISTINGS; listing++) {
      boolean foundNew = false;
      for (long tid : tasks(pid)) {
        if (tasks.add(tid)) {
          foundNew = true;
          if (ThreadAffinity.set(tid, cpus)) {
            moved++;
          }
        }
      }
      if (!foundNew) {
        break;
      }
    }
    return moved;
  }

  /**
   * The threads of process {@code pid} ({@code /proc/PID/task}); none once it has ended. By {@link
   * java.io.File#list}: 20–40 µs where a {@code DirectoryStream} took 250–320 µs (a loaded 2-core VM).
   */
  static List<Long> tasks(long pid) {
    String[] names = new java.io.File("/proc/" + pid + "/task").list();
    List<Long> tids = new ArrayList<>(names == null ? 0 : names.length);
    if (names != null) {
      for (String name : names) {
        tids.add(Long.parseLong(name));
      }
    }
    return tids;
  }

  /** The processes thread {@code tid} of {@code pid} forked ({@code /proc/PID/task/TID/children}). */
  private static List<Long> children(long pid, long tid) {
    List<Long> pids = new ArrayList<>();
    try {
      String text = Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "children"),
          StandardCharsets.US_ASCII).strip();
      if (!text.isEmpty()) {
        for (String child : text.split(" +")) {
          pids.add(Long.parseLong(child));
        }
      }
    } catch (IOException e) {
      // it has ended
    }
    return pids;
  }
}
