package dev.benchlake.app.study.duet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * How a duet's two CPU sets share the machine's device interrupts (disk and network completions),
 * from {@code /proc/interrupts}: counts since boot of the numbered (device) lines, summed over each
 * set's CPUs. A set that takes most of them runs its side's I/O-heavy steps slower in every round
 * (docs/designs.md), which the swap of sets evens out only over an even number of rounds and
 * which widens every interval: a duet says so before it starts, and study.json records the shares.
 *
 * @param one device interrupts handled by set one's CPUs
 * @param two by set two's
 */
public record InterruptShares(long one, long two) {
  /** Below this many device interrupts in all, the machine has not done enough I/O to tell. */
  static final long ENOUGH = 10_000;
  /** A set handling more than this share is uneven enough to say so. */
  static final double UNEVEN = 0.75;

  /** This machine's shares, or empty where there is no {@code /proc/interrupts} or it cannot be read. */
  public static Optional<InterruptShares> read(DuetCpus sets) {
    Path proc = Path.of("/proc/interrupts");
    try {
      return Files.isReadable(proc) ? Optional.of(parse(Files.readString(proc, StandardCharsets.US_ASCII), sets))
          : Optional.empty();
    } catch (IOException | RuntimeException e) {
      // A diagnostic, not a precondition: a format this parser does not know says nothing.
      return Optional.empty();
    }
  }

  /** The shares from {@code /proc/interrupts}' text: its header names the CPU columns ({@code CPU0 CPU1 …}). */
  static InterruptShares parse(String text, DuetCpus sets) {
    String[] lines = text.split("\n");
    String[] header = lines[0].trim().split("\\s+");
    int[] cpuOfColumn = new int[header.length];
    for (int c = 0; c < header.length; c++) {
      cpuOfColumn[c] = Integer.parseInt(header[c].substring("CPU".length()));
    }
    long one = 0;
    long two = 0;
    for (int i = 1; i < lines.length; i++) {
      String[] fields = lines[i].trim().split("\\s+");
      // Device interrupts are numbered ("36:"); LOC, RES, CAL and the like are each CPU's own.
      if (fields.length == 0 || !fields[0].matches("\\d+:")) {
        continue;
      }
      for (int c = 0; c < header.length && c + 1 < fields.length && fields[c + 1].matches("\\d+"); c++) {
        long count = Long.parseLong(fields[c + 1]);
        if (sets.one().cpus().get(cpuOfColumn[c])) {
          one += count;
        } else if (sets.two().cpus().get(cpuOfColumn[c])) {
          two += count;
        }
      }
    }
    return new InterruptShares(one, two);
  }

  /** Says on {@code log} when a duet's sets share the device interrupts unevenly: as its study starts. */
  public static void sayIfUneven(DuetCpus sets, java.io.PrintWriter log) {
    read(sets).flatMap(shares -> shares.warning(sets)).ifPresent(w -> {
      log.println("duet: " + w);
      log.flush();
    });
  }

  /** Set one's share of the two sets' device interrupts (NaN for none). */
  public double shareOfOne() {
    return (double) one / (one + two);
  }

  /** What to tell the user when one set takes most of the device interrupts; empty otherwise. */
  public Optional<String> warning(DuetCpus sets) {
    if (one + two < ENOUGH) {
      return Optional.empty();
    }
    double share = shareOfOne();
    if (share <= UNEVEN && 1 - share <= UNEVEN) {
      return Optional.empty();
    }
    boolean first = share > UNEVEN;
    // One line: what it does to the study; the fix (steering the interrupts) is in the docs.
    String evened = sets.swap().mode() == CpuSwap.IN_WINDOW ? "the swap inside every step evens it out"
        : "evened out over pairs of rounds only";
    return Optional.of(String.format(Locale.ROOT, "CPUs %s handle %.1f %% of the device interrupts: their side runs "
        + "I/O-heavy steps slower; %s (fix: docs/designs.md, Interrupts).", first ? sets.one() : sets.two(),
        100 * (first ? share : 1 - share), evened));
  }
}
