package dev.benchlake.app.study.duet;

import picocli.CommandLine;

/**
 * Reads a count of rounds or runs ({@code --rounds}, {@code --runs}, {@code --repeats},
 * {@code --max-rounds}, {@code --aa-rounds}) as it is read, before the command does anything: a
 * whole number from 1 to {@link #MAX}. Each plan checks its own minimum (two runs a side, three
 * rounds before a look); past MAX is a typo, not a study: a round is minutes of two servers' time,
 * and the plan lists every run it will make.
 */
public final class RoundsConverter implements CommandLine.ITypeConverter<Integer> {
  /** The most rounds (or runs per side, or repeats) any study or quickstart takes. */
  public static final int MAX = 1000;

  @Override
  public Integer convert(String value) {
    int n;
    try {
      n = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number of rounds");
    }
    if (n < 1 || n > MAX) {
      throw new CommandLine.TypeConversionException("'" + value + "' is not from 1 to " + MAX);
    }
    return n;
  }
}
