package dev.benchlake.app.study;

import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.RoundsConverter;
import dev.benchlake.core.cli.BadInputException;
import picocli.CommandLine.Option;

/** {@code --until-decided --max-rounds N}, for the studies that can run a duet round by round. */
public final class UntilDecidedOptions {
  /** The most rounds when none is given: looks after rounds 3 to 10. */
  public static final String DEFAULT_MAX_ROUNDS = "10";

  @Option(names = "--until-decided", description = "A duet: run round after round and look after each from round "
      + SequentialLooks.MIN_FIRST_LOOK + " on; stop when every step is decided (faster, slower or equivalent) or "
      + "after --max-rounds (--rounds is then ignored). Haybittle-Peto boundaries keep the error "
      + "rates at alpha however many looks there are; the report names the rule and the round it stopped at. A "
      + "step decided at a look drops out of later rounds (study.json: until_decided.decided_after_round). A "
      + "comparison skips a look at which no open step can be decided yet (its runs' medians, read before the "
      + "look), which only removes a chance to decide.")
  boolean untilDecided;

  @Option(names = "--max-rounds", paramLabel = "N", converter = RoundsConverter.class, defaultValue = DEFAULT_MAX_ROUNDS,
      description = "With --until-decided: the most comparison rounds, at least " + SequentialLooks.MIN_FIRST_LOOK
          + " (default: ${DEFAULT-VALUE}).")
  int maxRounds;

  @Option(names = "--budget", paramLabel = "DURATION", converter = dev.benchlake.core.cli.DurationConverter.Positive.class,
      description = Budget.DESCRIPTION)
  java.time.Duration budget;

  public boolean untilDecided() {
    return untilDecided || budget != null;
  }

  /** {@code --budget}, or null. */
  public java.time.Duration budget() {
    return budget;
  }

  public int maxRounds() {
    return maxRounds;
  }

  /**
   * The looks of a study run until decided, or null.
   *
   * @throws BadInputException for --until-decided without a duet, or too few rounds
   */
  public SequentialLooks looks(Design design, StatisticsSettings settings) {
    return looks(untilDecided(), maxRounds, design, settings);
  }

  /** The same, for a command whose default differs ({@code quickstart}: on). */
  public static SequentialLooks looks(boolean untilDecided, int maxRounds, Design design, StatisticsSettings settings) {
    if (!untilDecided) {
      return null;
    }
    if (design != Design.DUET) {
      throw new BadInputException("--until-decided runs a duet round by round (its pairs are what a look decides on): "
          + "use --design duet");
    }
    return SequentialLooks.haybittlePeto(settings, SequentialLooks.DEFAULT_FIRST_LOOK, maxRounds);
  }
}
