package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.CpuSwap;
import dev.benchlake.core.cli.BadInputException;
import java.util.Arrays;
import java.util.Locale;
import picocli.CommandLine;

/**
 * How a study measures its sides ({@code --design}; the runs carry it as the label
 * {@code design}, so that the analysis knows which runs are paired).
 *
 * <ul>
 *   <li>{@code sequential}: all runs of one side, then all of the next; unpaired.
 *   <li>{@code interleaved}: every side once per round, in an order the seed shuffles (or
 *       alternates) per round, as randomized multiple interleaved trials do; unpaired, or paired by
 *       round where the rounds share drift.
 *   <li>{@code duet}: both sides at the same moment on one machine, each on its own CPU set, the
 *       sets swapped every round (and inside every step, {@link CpuSwap}), every step started on
 *       both sides together and counted over the window they share; paired by round. Every duet
 *       carries an a/a control.
 * </ul>
 */
public enum Design {
  SEQUENTIAL, INTERLEAVED, DUET;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return id();
  }

  /** @throws BadInputException naming the designs */
  public static Design parse(String text) {
    return Arrays.stream(values()).filter(d -> d.id().equals(text.strip().toLowerCase(Locale.ROOT))).findFirst()
        .orElseThrow(() -> new BadInputException("--design '" + text + "': one of sequential, interleaved, duet"));
  }

  /** picocli's converter. */
  public static final class Converter implements CommandLine.ITypeConverter<Design> {
    @Override
    public Design convert(String value) {
      return parse(value);
    }
  }
}
