package dev.benchlake.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * A set of CPUs written as Linux and {@code taskset -c} write them, e.g. {@code 0-3,8}: the one
 * parser and formatter of that syntax, and the reader of a process's allowed CPUs
 * ({@code Cpus_allowed_list} in {@code /proc/PID/status}).
 */
public record CpuList(BitSet cpus) {
  /** The largest CPU number accepted (Linux's default NR_CPUS is far below it). */
  private static final int MAX_CPU = 65_535;

  public CpuList {
    cpus = (BitSet) cpus.clone();
  }

  /** A copy: the list itself never changes. */
  @Override
  public BitSet cpus() {
    return (BitSet) cpus.clone();
  }

  /**
   * Parses {@code 0-3,8}.
   *
   * @throws IllegalArgumentException naming what is wrong, for a message to the user
   */
  public static CpuList parse(String text) {
    BitSet set = new BitSet();
    String trimmed = text == null ? "" : text.strip();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("an empty CPU list");
    }
    for (String part : trimmed.split(",", -1)) {
      String[] ends = part.strip().split("-", -1);
      if (ends.length > 2) {
        throw new IllegalArgumentException("'" + part.strip() + "' in '" + trimmed + "' is not a CPU or a range A-B");
      }
      int from = cpu(ends[0], trimmed);
      int to = ends.length == 2 ? cpu(ends[1], trimmed) : from;
      if (to < from) {
        throw new IllegalArgumentException("'" + part.strip() + "' in '" + trimmed + "' is a range that ends before it starts");
      }
      set.set(from, to + 1);
    }
    return new CpuList(set);
  }

  private static int cpu(String text, String whole) {
    try {
      int cpu = Integer.parseInt(text.strip());
      if (cpu >= 0 && cpu <= MAX_CPU) {
        return cpu;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("'" + text.strip() + "' in '" + whole + "' is not a CPU number");
  }

  /** The CPUs in order. */
  public List<Integer> list() {
    List<Integer> out = new ArrayList<>();
    cpus.stream().forEach(out::add);
    return out;
  }

  public int size() {
    return cpus.cardinality();
  }

  /** The first {@code n} CPUs (in order) and the rest: the default halves of a duet. */
  public List<CpuList> split(int n) {
    BitSet first = new BitSet();
    BitSet rest = new BitSet();
    List<Integer> all = list();
    for (int i = 0; i < all.size(); i++) {
      (i < n ? first : rest).set(all.get(i));
    }
    return List.of(new CpuList(first), new CpuList(rest));
  }

  public boolean intersects(CpuList other) {
    return cpus.intersects(other.cpus);
  }

  /** Whether every CPU of this list is in {@code other}. */
  public boolean within(CpuList other) {
    BitSet rest = (BitSet) cpus.clone();
    rest.andNot(other.cpus);
    return rest.isEmpty();
  }

  /** {@code 0-3,8}: consecutive CPUs as a range A-B, as Linux writes them (also {@code 0-1}). */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    int cpu = cpus.nextSetBit(0);
    while (cpu >= 0) {
      int end = cpus.nextClearBit(cpu) - 1;
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(cpu);
      if (end > cpu) {
        out.append('-').append(end);
      }
      cpu = cpus.nextSetBit(end + 1);
    }
    return out.toString();
  }

  /**
   * The CPUs process {@code pid} may run on, from {@code /proc/PID/status}; empty where that cannot
   * be read (not Linux, the process has ended, or it belongs to another user on a hardened /proc).
   */
  public static Optional<CpuList> allowedFor(long pid) {
    return allowedIn(Path.of("/proc", Long.toString(pid), "status"));
  }

  /** This process's allowed CPUs ({@link #allowedFor}). */
  public static Optional<CpuList> allowedForThisProcess() {
    return allowedFor(ProcessHandle.current().pid());
  }

  static Optional<CpuList> allowedIn(Path status) {
    try {
      for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return Optional.of(parse(line.substring(line.indexOf(':') + 1)));
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
