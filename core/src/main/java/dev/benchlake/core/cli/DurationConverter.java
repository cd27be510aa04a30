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
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|min|h)");

  @Override
  public Duration convert(String value) {
    return parse(value);
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
      return Duration.ofNanos(amount.multiply(nanosPerUnit).longValue());
    }
    if (text.startsWith("pt") || text.startsWith("p")) {
      try {
        return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
      } catch (RuntimeException e) {
        // fall through to the message below
      }
    }
    throw new CommandLine.TypeConversionException(
        "'" + value + "' is not a duration: write a number and a unit, e.g. 60s, 1.5s, 500ms, 2m, 1h");
  }
}
