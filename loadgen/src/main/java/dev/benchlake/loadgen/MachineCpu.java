package dev.benchlake.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The whole machine's CPU time, busy and in all, from the first line of Linux's {@code /proc/stat}
 * (every CPU summed, in USER_HZ ticks). Read at both ends of a step's window beside the server's
 * and the client's own CPU time, it tells how much of the machine other work took meanwhile: a
 * report's scope subtracts every run's own time over the same window. Busy is {@code user + nice
 * + system + irq + softirq + steal} (guest time is inside user); all adds {@code idle + iowait}.
 * Interrupt time counts as busy because a process's own time holds what the kernel did in its
 * context: a point-select duet's loopback traffic showed 4–5 % of the machine as softirq in
 * {@code /proc/stat}, yet each side's server and client summed to its whole CPU. Steal counts as
 * busy: a hypervisor that runs another guest on this VM's CPU takes it from the sides as surely as
 * a process here would.
 */
final class MachineCpu {
  private static final Path STAT = Path.of("/proc/stat");

  /** CPU time in ns: busy, and in all (busy and idle). */
  record Reading(long busyNs, long allNs) {}

  private MachineCpu() {}

  /** The reading now, or empty where there is no {@code /proc/stat} (not Linux). */
  static Optional<Reading> read() throws IOException {
    if (!Files.isReadable(STAT)) {
      return Optional.empty();
    }
    try (var lines = Files.lines(STAT, StandardCharsets.US_ASCII)) {
      return lines.findFirst().map(MachineCpu::parse);
    }
  }

  /** Parses the aggregate {@code cpu} line of {@code /proc/stat}. */
  static Reading parse(String line) {
    String[] f = line.trim().split("\\s+");
    if (!f[0].equals("cpu") || f.length < 8) {
      throw new IllegalArgumentException("not /proc/stat's aggregate cpu line: " + line);
    }
    long user = Long.parseLong(f[1]);
    long nice = Long.parseLong(f[2]);
    long system = Long.parseLong(f[3]);
    long idle = Long.parseLong(f[4]);
    long iowait = Long.parseLong(f[5]);
    long irq = Long.parseLong(f[6]);
    long softirq = Long.parseLong(f[7]);
    long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
    long busy = user + nice + system + irq + softirq + steal;
    return new Reading(busy * ProcessCounters.TICK_NS, (busy + idle + iowait) * ProcessCounters.TICK_NS);
  }
}
