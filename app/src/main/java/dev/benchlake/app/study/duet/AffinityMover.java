package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.ProcessIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Moves one duet side's processes to a CPU set without a cgroup: every thread of its JVM and of
 * every process under it, and its embedded servers' postmasters with every process under them, each
 * with {@code sched_setaffinity} ({@link ThreadAffinity}), which a user may do to its own processes.
 * The postmaster is not under the JVM ({@code pg_ctl} forks it and exits, so its parent is init): it
 * is found by its cluster's {@code postmaster.pid} ({@code servers}), again only once it is gone.
 *
 * <p>Nothing is missed for long. A process is moved before its children are listed, so a child it
 * forks after its move inherits the new set (the postmaster first: a backend forked during a move is
 * on the new set already). A JVM's threads are listed again until a listing shows none not moved,
 * since a thread started by a thread not yet moved inherits the old set. What still escapes (a task
 * started after the last listing by one moved before its move took effect) is on the new set at the
 * next move: at most one period late.
 */
final class AffinityMover {
  /** Listings of a process's threads before one that finds no new thread; a JVM starts few threads once warm. */
  private static final int MAX_LISTINGS = 4;

  private final long rootPid;
  private final Supplier<List<Long>> servers;
  private List<ProcessIdentity> knownServers = List.of();

  /**
   * @param rootPid the side's process (its JVM)
   * @param servers the postmasters of the side's embedded servers that run now
   */
  AffinityMover(long rootPid, Supplier<List<Long>> servers) {
    this.rootPid = rootPid;
    this.servers = servers;
  }

  /**
   * Puts every task of the side on {@code cpus}.
   *
   * @return how many tasks were moved
   * @throws IllegalStateException when the kernel refused a move
   */
  int moveTo(CpuList cpus) {
    Set<Long> done = new LinkedHashSet<>();
    int moved = 0;
    for (ProcessIdentity server : servers()) {
      moved += moveTree(server.pid(), cpus, done);
    }
    return moved + moveTree(rootPid, cpus, done);
  }

  /** The servers' postmasters, found again only when one of those known has ended (or none was known). */
  private List<ProcessIdentity> servers() {
    if (knownServers.isEmpty() || !knownServers.stream().allMatch(ProcessIdentity::alive)) {
      List<ProcessIdentity> found = new ArrayList<>();
      for (long pid : servers.get()) {
        ProcessIdentity.of(pid).ifPresent(found::add);
      }
      knownServers = List.copyOf(found);
    }
    return knownServers;
  }

  /** Moves every thread of {@code pid}, then every process under it, each once ({@code done}). */
  private static int moveTree(long pid, CpuList cpus, Set<Long> done) {
    if (!done.add(pid)) {
      return 0;
    }
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
    for (long tid : tasks) {
      for (long child : children(pid, tid)) {
        moved += moveTree(child, cpus, done);
      }
    }
    return moved;
  }

  /** The threads of process {@code pid} ({@code /proc/PID/task}); none once it has ended. */
  static List<Long> tasks(long pid) {
    List<Long> tids = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : dir) {
        tids.add(Long.parseLong(task.getFileName().toString()));
      }
    } catch (IOException e) {
      // it has ended
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
