package dev.benchlake.app.study.duet;

import dev.benchlake.core.cli.DurationConverter;
import java.time.Duration;
import picocli.CommandLine;

/**
 * How a duet's sides swap CPU sets: when ({@link CpuSwap}), and with {@link CpuSwap#IN_WINDOW} how
 * ({@link SwapMover}) and how often inside a step ({@code --swap-period}). Every run of the duet
 * records them in its labels ({@link #MODE_LABEL}, {@link #MOVER_LABEL}, {@link #PERIOD_LABEL}); a
 * run without the period's label was swapped every {@link #DEFAULT_PERIOD}, the one period there was
 * before the option, and an in-window run without the mover's label by cgroup groups.
 *
 * @param mode when the sets are swapped
 * @param mover how a side is moved inside a step: with {@link CpuSwap#IN_WINDOW}, else null
 * @param period how often inside a step, with {@link CpuSwap#IN_WINDOW}
 */
public record SwapRule(CpuSwap mode, SwapMover mover, Duration period) {
  /**
   * A tenth of a second: short beside the transients of a step's first second, which a longer
   * period leaves to one set; in a/a studies on a 2-core VM, 100 ms gave the smallest per-round SD
   * of the log ratio of 100, 250 and 500 ms (docs/designs.md).
   */
  public static final String DEFAULT_PERIOD = "100ms";
  /** The shortest period: a move is two writes, but a thread that is not real-time wakes up to 25 ms late. */
  public static final String MIN_PERIOD = "10ms";
  /** The longest: a step's measured window is seconds long, and a longer period leaves most of it on one set. */
  public static final String MAX_PERIOD = "10s";
  /** The label with {@link CpuSwap#id()}: how the run's CPU sets were swapped. */
  public static final String MODE_LABEL = CpuSwap.LABEL;
  /** The label with the in-window period in ms (only on runs swapped in the window). */
  public static final String PERIOD_LABEL = "cpu_swap_period_ms";
  /** The label with {@link SwapMover#id()} (only on runs swapped in the window). */
  public static final String MOVER_LABEL = SwapMover.LABEL;

  /** Between rounds only. */
  public static final SwapRule PER_ROUND = new SwapRule(CpuSwap.PER_ROUND, null, defaultPeriod());

  public SwapRule {
    if ((mode == CpuSwap.IN_WINDOW) != (mover != null)) {
      throw new IllegalArgumentException("a swap " + mode.id() + " with mover " + mover + ": in-window swaps, and "
          + "only they, have one");
    }
    if (!withinRange(period)) {
      throw new IllegalArgumentException("a swap period of " + period + " is not from " + MIN_PERIOD + " to "
          + MAX_PERIOD);
    }
  }

  private static boolean withinRange(Duration period) {
    return period.compareTo(DurationConverter.parse(MIN_PERIOD)) >= 0
        && period.compareTo(DurationConverter.parse(MAX_PERIOD)) <= 0;
  }

  /** {@link #DEFAULT_PERIOD} as a duration. */
  public static Duration defaultPeriod() {
    return DurationConverter.parse(DEFAULT_PERIOD);
  }

  /** The period in ms, as the label and study.json say it. */
  public String periodMs() {
    return new java.math.BigDecimal(period.toNanos()).movePointLeft(6).stripTrailingZeros().toPlainString();
  }

  /** Reads {@code --swap-period} as picocli reads it: a duration from {@link #MIN_PERIOD} to {@link #MAX_PERIOD}. */
  public static final class Converter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Duration d = DurationConverter.parse(value);
      if (!withinRange(d)) {
        throw new CommandLine.TypeConversionException("'" + value + "' is not from " + MIN_PERIOD + " to " + MAX_PERIOD);
      }
      return d;
    }
  }
}
