package dev.benchlake.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time and context switches of a process tree (an embedded server: its postmaster and every
 * descendant) or of this JVM, from Linux's {@code /proc}.
 *
 * <p><b>CPU time</b> is exact at any reading: {@code utime + stime} of every live process (a
 * process's figure covers all its threads, exited ones too) plus {@code cutime + cstime}, where
 * the kernel adds a child's whole time when its parent reaps it: a backend that exited during the
 * step is in its postmaster's {@code cutime}. Its resolution is the clock tick, {@link #TICK_NS}
 * (10 ms), per process and reading.
 *
 * <p><b>Context switches</b> are per thread in {@code /proc/<pid>/task/<tid>/status} and leave
 * no trace when the thread exits (no children's count, unlike CPU time): the step's backends and
 * worker threads exit before its end. So the counts are {@linkplain #sampleSwitches sampled}
 * during the step too, and a thread that exited counts with its last sample: short by at most the
 * last {@link StepResourceRecorder#SAMPLE_MS} ms of each exited thread, a lower bound.
 */
final class ProcessCounters {
  /** USER_HZ, the unit of /proc's times: 100 on every Linux architecture the JDK runs on. */
  static final long TICK_NS = 10_000_000L;
  private static final Path PROC = Path.of("/proc");

  /** A process's CPU ticks and its parent. */
  record Stat(long pid, long ppid, long userTicks, long systemTicks, long childUserTicks, long childSystemTicks,
      long startTicks) {}

  /** CPU time in ns. */
  record Cpu(long userNs, long systemNs) {}

  private final long rootPid;
  private final boolean tree;
  /** The last context switches seen per thread (tid and start time), exited ones kept. */
  private final Map<String, long[]> switches = new HashMap<>();
  /** Each live process's parent and start time, read once. */
  private final Map<Long, Long> parents = new HashMap<>();
  private final Map<Long, Long> starts = new HashMap<>();

  private ProcessCounters(long rootPid, boolean tree) {
    this.rootPid = rootPid;
    this.tree = tree;
  }

  /** The tree under {@code postmasterPid}, or empty when /proc does not show it. */
  static Optional<ProcessCounters> tree(long postmasterPid) {
    return Files.isReadable(PROC.resolve(postmasterPid + "/stat"))
        ? Optional.of(new ProcessCounters(postmasterPid, true)) : Optional.empty();
  }

  /** This JVM, or empty when there is no /proc (not Linux). */
  static Optional<ProcessCounters> self() {
    return Files.isReadable(PROC.resolve("self/stat"))
        ? Optional.of(new ProcessCounters(ProcessHandle.current().pid(), false)) : Optional.empty();
  }

  /** Parses a {@code /proc/<pid>/stat} line (the command name may hold spaces and parentheses). */
  static Stat parseStat(String line) {
    int close = line.lastIndexOf(')');
    long pid = Long.parseLong(line.substring(0, line.indexOf(' ')).trim());
    String[] f = line.substring(close + 2).trim().split(" ");
    // f[0] is field 3 (state): field n is f[n - 3].
    return new Stat(pid, Long.parseLong(f[1]), Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
        Long.parseLong(f[14]), Long.parseLong(f[19]));
  }

  /** The voluntary and involuntary context switches in a {@code status} file's text. */
  static long[] parseSwitches(String status) {
    long[] counts = new long[2];
    for (String line : status.split("\n")) {
      if (line.startsWith("voluntary_ctxt_switches:")) {
        counts[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
        counts[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return counts;
  }

  /**
   * The CPU time of the process (this JVM) or the tree, children that exited included. A tree is
   * read again when its root reaped a child during the reading (the child's time would count
   * twice or not at all).
   */
  Cpu cpu() throws IOException {
    for (int attempt = 0; ; attempt++) {
      Stat root = parseStat(Files.readString(PROC.resolve(rootPid + "/stat"), StandardCharsets.UTF_8));
      long user = 0;
      long system = 0;
      for (long pid : pids()) {
        Stat s;
        try {
          s = pid == rootPid ? root : parseStat(Files.readString(PROC.resolve(pid + "/stat"), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException gone) {
          continue; // exited since the listing: in its parent's cutime once reaped
        }
        user += s.userTicks() + s.childUserTicks();
        system += s.systemTicks() + s.childSystemTicks();
      }
      Stat again = parseStat(Files.readString(PROC.resolve(rootPid + "/stat"), StandardCharsets.UTF_8));
      boolean reaped = again.childUserTicks() != root.childUserTicks()
          || again.childSystemTicks() != root.childSystemTicks();
      if (!tree || !reaped || attempt >= 10) {
        return new Cpu(user * TICK_NS, system * TICK_NS);
      }
    }
  }

  /** Forgets the threads seen so far: the next {@link #switches()} starts a new count. */
  synchronized void resetSwitches() {
    switches.clear();
  }

  /** Reads every live thread's context switches and keeps them (exited threads keep their last). */
  synchronized void sampleSwitches() throws IOException {
    for (long pid : pids()) {
      Long start = starts.get(pid);
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(pid + "/task"))) {
        for (Path task : tasks) {
          try {
            long[] counts = parseSwitches(Files.readString(task.resolve("status"), StandardCharsets.UTF_8));
            switches.put(pid + "/" + start + "/" + task.getFileName(), counts);
          } catch (IOException | RuntimeException gone) {
            // exited between the listing and the read: its last sample stands
          }
        }
      } catch (IOException gone) {
        // the process exited: its threads' last samples stand
      }
    }
  }

  /** Σ voluntary, Σ involuntary context switches over every thread seen since the last reset. */
  synchronized long[] switches() {
    long[] sum = new long[2];
    for (long[] c : switches.values()) {
      sum[0] += c[0];
      sum[1] += c[1];
    }
    return sum;
  }

  /** The root and, for a tree, every live descendant, as {@code /proc} lists them now. */
  List<Long> livePids() throws IOException {
    return List.copyOf(pids());
  }

  /**
   * The root and, for a tree, every live descendant. Each process's parent is read once (from its
   * {@code stat}, kept with its start time against a reused pid), so that a sample lists /proc
   * and reads only the processes it has not seen.
   */
  private synchronized List<Long> pids() throws IOException {
    List<Long> result = new ArrayList<>();
    result.add(rootPid);
    if (!tree) {
      starts.putIfAbsent(rootPid, 0L);
      return result;
    }
    Map<Long, List<Long>> byParent = new HashMap<>();
    java.util.Set<Long> live = new java.util.HashSet<>();
    try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
      for (Path p : all) {
        long pid = Long.parseLong(p.getFileName().toString());
        live.add(pid);
        Long parent = parents.get(pid);
        if (parent == null) {
          try {
            Stat s = parseStat(Files.readString(p.resolve("stat"), StandardCharsets.UTF_8));
            parent = s.ppid();
            parents.put(pid, parent);
            starts.put(pid, s.startTicks());
          } catch (IOException | RuntimeException gone) {
            continue; // exited during the listing: a reaped child is in its parent's cutime
          }
        }
        byParent.computeIfAbsent(parent, k -> new ArrayList<>()).add(pid);
      }
    }
    parents.keySet().retainAll(live);
    starts.keySet().retainAll(live);
    for (int i = 0; i < result.size(); i++) {
      result.addAll(byParent.getOrDefault(result.get(i), List.of()));
    }
    return result;
  }

  private static boolean isNumber(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return !name.isEmpty();
  }
}
