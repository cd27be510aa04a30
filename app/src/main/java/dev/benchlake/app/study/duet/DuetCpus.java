package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.BadInputException;
import java.util.Optional;

/**
 * A duet's two disjoint CPU sets: by default the first and the second half of the CPUs this
 * process may use, or {@code --cpus-a}/{@code --cpus-b}. Side a runs on set one in half of the rounds
 * of its kind and on set two in the other half, in an order the study's seed draws ({@link
 * DuetSchedule}), side b on the other set, so that a faster core (or one that shares a cache with
 * the machine's other work) cannot favour one side.
 *
 * @param one set one
 * @param two set two
 * @param swap whether the sides also swap sets inside every window, and how often
 */
public record DuetCpus(CpuList one, CpuList two, SwapRule swap) {
  /** Sets swapped between rounds only. */
  public DuetCpus(CpuList one, CpuList two) {
    this(one, two, SwapRule.PER_ROUND);
  }

  /** These sets, swapped as {@code how}. */
  public DuetCpus withSwap(SwapRule how) {
    return new DuetCpus(one, two, how);
  }

  /**
   * The sets of {@code --cpus-a} and {@code --cpus-b} (either may be null: the other's complement,
   * or the halves when both are).
   *
   * @throws BadInputException for a machine with one CPU, a list that does not parse, sets that
   *     share a CPU or leave the machine's
   */
  public static DuetCpus choose(CpuList available, String cpusA, String cpusB) {
    if (available.size() < 2) {
      throw new BadInputException("--design duet runs both sides at once, each on CPUs of its own, and this machine "
          + "has 1 CPU (" + available + "): use --design interleaved");
    }
    CpuList a = cpusA == null ? null : parse("--cpus-a", cpusA, available);
    CpuList b = cpusB == null ? null : parse("--cpus-b", cpusB, available);
    if (a == null && b == null) {
      var halves = available.split(available.size() / 2);
      return new DuetCpus(halves.get(0), halves.get(1));
    }
    if (a == null || b == null) {
      CpuList given = a != null ? a : b;
      CpuList rest = complement(available, given);
      if (rest.size() == 0) {
        throw new BadInputException((a != null ? "--cpus-a " : "--cpus-b ") + given + " takes every CPU (" + available
            + "): leave some for the other side, or give --cpus-a and --cpus-b");
      }
      return a != null ? new DuetCpus(a, rest) : new DuetCpus(rest, b);
    }
    if (a.intersects(b)) {
      throw new BadInputException("--cpus-a " + a + " and --cpus-b " + b + " share CPUs: a duet's sides need "
          + "disjoint sets");
    }
    return new DuetCpus(a, b);
  }

  /** This process's CPUs, or why a duet cannot run here. */
  public static CpuList available() {
    Optional<CpuList> mine = CpuList.allowedForThisProcess();
    return mine.orElseThrow(() -> new BadInputException("--design duet pins each side to CPUs of its own with "
        + "taskset and reads the sets back from /proc: it needs Linux; use --design interleaved"));
  }

  /** How the sets are swapped, in words, for the study's first line. */
  public String swapInWords() {
    return swap.mode() == CpuSwap.IN_WINDOW
        ? "swapped every round, and every " + swap.periodMs() + " ms inside each step " + swap.mover().inWords()
        : "swapped every round";
  }

  /** Side a's set in {@code round}. */
  public CpuList sideA(DuetSchedule.Round round) {
    return round.aOnSetOne() ? one : two;
  }

  /** Side b's set in {@code round}: the other one. */
  public CpuList sideB(DuetSchedule.Round round) {
    return round.aOnSetOne() ? two : one;
  }

  private static CpuList parse(String option, String text, CpuList available) {
    CpuList list;
    try {
      list = CpuList.parse(text);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(option + " '" + text + "': " + e.getMessage() + " (e.g. 0-3 or 0,2)", e);
    }
    if (!list.within(available)) {
      throw new BadInputException(option + " " + list + " is not within this process's CPUs (" + available + ")");
    }
    return list;
  }

  private static CpuList complement(CpuList all, CpuList taken) {
    java.util.BitSet rest = all.cpus();
    rest.andNot(taken.cpus());
    return new CpuList(rest);
  }
}
