package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
 * <p>Nothing is missed for long. The postmaster is moved before its children are listed, so a
 * backend it forks after its move inherits the new set. A JVM's threads are listed again until a
 * listing shows none not moved, since a thread started by a thread not yet moved inherits the old
 * set. What still escapes (a task started after the last listing by one moved before its move took
 * effect) is on the new set at the next move: at most one period (100 ms by default) late.
 */
final class AffinityMover {
  /** Listings of a process's threads before one that finds no new thread; a JVM starts few threads once warm. */
  private static final int MAX_LISTINGS = 4;

  private final long rootPid;
  private final Supplier<List<Long>> servers;
  /** Read by the coordinator's thread ({@link #lookUp}) and the swap's. */
  private volatile List<Long> knownServers = List.of();

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
   * Puts every task of the side on {@code cpus}.
   *
   * @return how many tasks were moved
   * @throws IllegalStateException when the kernel refused a move
   */
  int moveTo(CpuList cpus) {
    lookUp();
    int moved = 0;
    for (long postmaster : knownServers) {
      if (!ThreadAffinity.set(postmaster, cpus)) {
        knownServers = List.of(); // it has stopped: the next move looks again
        continue;
      }
      moved++;
      for (long child : children(postmaster, postmaster)) {
        if (ThreadAffinity.set(child, cpus)) {
          moved++;
        }
      }
    }
    return moved + moveThreads(rootPid, cpus);
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
