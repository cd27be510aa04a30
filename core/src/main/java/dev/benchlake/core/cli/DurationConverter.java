package dev.benchlake.core.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations as people write them on a command line: {@code 60s}, {@code 1.5s},
 * {@code 500ms}, {@code 250us}, {@code 2m}, {@code 1h}, or an ISO-8601 {@code PT1M}. A bare number
 * is rejected: a unit is always required, because "15" means seconds to some and milliseconds to
 * others.
 *
 * <p>Every duration option is read here, so its range is checked as the option is read, before
 * the command does anything (picocli's bad value: one line, exit 2): never negative, never longer
 * than {@link #MAX}; {@link Positive} for what must last (a step, a timeout), not 0. A value past
 * MAX is a typo ({@code 999999999h} would wrap around a long of nanoseconds and come out as
 * anything), and sums of such options stay far from a long's range.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|min|h)");
  /** The longest duration any option takes: 30 days (720h). */
  public static final Duration MAX = Duration.ofDays(30);

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** For the durations that must last: a step's measured time, a timeout. */
  public static final class Positive implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Duration d = parse(value);
      if (d.isZero()) {
        throw new CommandLine.TypeConversionException("'" + value + "' is not above 0: give a duration such as 1s");
      }
      return d;
    }
  }

  /** @throws CommandLine.TypeConversionException with a message naming the accepted forms */
  public static Duration parse(String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    Matcher m = SIMPLE.matcher(text);
    if (m.matches()) {
      BigDecimal amount = new BigDecimal(m.group(1));
      BigDecimal nanosPerUnit = switch (m.group(2)) {
        case "ns" -> BigDecimal.ONE;
        case "us", "µs" -> BigDecimal.valueOf(1_000L);
        case "ms" -> BigDecimal.valueOf(1_000_000L);
        case "s" -> BigDecimal.valueOf(1_000_000_000L);
        case "m", "min" -> BigDecimal.valueOf(60_000_000_000L);
        case "h" -> BigDecimal.valueOf(3_600_000_000_000L);
        default -> throw new IllegalStateException(m.group(2));
      };
      BigDecimal nanos = amount.multiply(nanosPerUnit);
      return inRange(value, nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0 ? null
          : Duration.ofNanos(nanos.longValue()));
    }
    if (text.startsWith("pt") || text.startsWith("p")) {
      Duration iso;
      try {
        iso = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
      } catch (RuntimeException e) {
        iso = null; // the message below
      }
      if (iso != null) {
        if (iso.isNegative()) {
          throw new CommandLine.TypeConversionException("'" + value + "' is negative: a duration is 0 or more");
        }
        return inRange(value, iso.compareTo(MAX) > 0 ? null : iso);
      }
    }
    throw new CommandLine.TypeConversionException(
        "'" + value + "' is not a duration: write a number and a unit, e.g. 60s, 1.5s, 500ms, 2m, 1h");
  }

  /** @param d the duration, or null when it is past {@link #MAX} */
  private static Duration inRange(String value, Duration d) {
    if (d == null) {
      throw new CommandLine.TypeConversionException("'" + value + "' is longer than " + MAX.toHours() + "h (" + MAX.toDays()
          + " days), the longest any duration option takes");
    }
    return d;
  }
}
