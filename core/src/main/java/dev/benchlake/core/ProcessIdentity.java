package dev.benchlake.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A process as the kernel knows it: its pid and when it started, so that a pid the kernel has
 * handed to another process since (pids are recycled, within minutes on a busy machine) is not
 * taken for the process that had it. What benchlake records of a process it may outlive: the owner
 * of an embedded server, the coordinator of a duet.
 *
 * @param pid the process id
 * @param startTicks when it started: {@code /proc/PID/stat}'s {@code starttime} (clock ticks since
 *     boot) on Linux; elsewhere its start instant in ms since the epoch ({@link ProcessHandle.Info})
 */
public record ProcessIdentity(long pid, long startTicks) {
  /** This process. */
  public static ProcessIdentity current() {
    long pid = ProcessHandle.current().pid();
    return of(pid).orElseThrow(() -> new IllegalStateException("cannot read this process's start time"));
  }

  /** The process that has {@code pid} now; empty when none has, or it has exited (a zombie waiting for its parent). */
  public static Optional<ProcessIdentity> of(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (Files.isDirectory(Path.of("/proc/self"))) {
      try {
        return parse(pid, Files.readString(stat, StandardCharsets.UTF_8));
      } catch (IOException e) {
        return Optional.empty();
      }
    }
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).flatMap(p -> p.info().startInstant())
        .map(start -> new ProcessIdentity(pid, start.toEpochMilli()));
  }

  /**
   * The identity in a {@code /proc/PID/stat} line: {@code pid (comm) state ppid … starttime …}, its
   * 22nd field; the command name may hold blanks and parentheses, so the fields are counted from the
   * last ')'. Empty for a zombie ({@code Z}) or a dead process ({@code X}): it runs no more.
   */
  static Optional<ProcessIdentity> parse(long pid, String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return Optional.empty();
    }
    String[] fields = stat.substring(close + 1).strip().split(" +");
    if (fields.length < 20 || fields[0].equals("Z") || fields[0].equals("X")) {
      return Optional.empty();
    }
    return Optional.of(new ProcessIdentity(pid, Long.parseLong(fields[19])));
  }

  /** Whether this very process still runs: its pid is taken by a process that started when it did. */
  public boolean alive() {
    return of(pid).filter(this::equals).isPresent();
  }

  /** {@code PID:START}, as the files that record it write it. */
  @Override
  public String toString() {
    return pid + ":" + startTicks;
  }

  /** The identity {@link #toString} wrote. */
  public static ProcessIdentity parse(String text) {
    int colon = text.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("not PID:START: " + text);
    }
    return new ProcessIdentity(Long.parseLong(text.substring(0, colon).strip()),
        Long.parseLong(text.substring(colon + 1).strip()));
  }
}
