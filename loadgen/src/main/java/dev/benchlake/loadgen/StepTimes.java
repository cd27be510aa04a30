package dev.benchlake.loadgen;

import dev.benchlake.core.cli.DurationConverter;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The times of a step besides {@code --duration}: the read and write steps' own measured times and
 * the warm-up, as {@code loadgen} and the studies take them (each command's defaults from its own
 * default provider), declared once. {@code --duration} stays each command's own: loadgen's has no
 * default (a run may count {@code --tasks} instead), a study's has one.
 */
public final class StepTimes {
  @Option(names = "--read-duration", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "sysbench: measured time of each step that only reads (the mytools study's readsecs), "
          + "instead of --duration.")
  private Duration readDuration;

  @Option(names = "--write-duration", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "sysbench: measured time of each step that writes (the study's writesecs), instead of --duration.")
  private Duration writeDuration;

  @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Warm-up of each step (its tasks recorded, marked warmup) (default: ${DEFAULT-VALUE}).")
  private Duration warmup;

  /** The measured time of the steps that only read, instead of {@code --duration}; null: the same. */
  public Duration readDuration() {
    return readDuration;
  }

  /** The measured time of the steps that write, instead of {@code --duration}; null: the same. */
  public Duration writeDuration() {
    return writeDuration;
  }

  /** The warm-up of each step. */
  public Duration warmup() {
    return warmup;
  }
}
