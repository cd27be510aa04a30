package dev.benchlake.app.study;

import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.app.study.duet.RoundsConverter;
import dev.benchlake.core.cli.BadInputException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --rounds}, one name for one idea in every study: the comparison rounds (runs per side, or
 * per major). {@code --runs} (the quickstart's name before) and {@code --repeats} ({@code study
 * versions}') still work, hidden, so that scripts written for them still run. The default is the
 * command's ({@link StudyDefaults}).
 */
public final class RoundsOption {
  @Option(names = "--rounds", paramLabel = "N", converter = RoundsConverter.class,
      description = "Comparison rounds: runs per side (default: ${DEFAULT-VALUE}).")
  int rounds;

  /** Each former name an option of its own, so that a refusal names the option as it was typed. */
  @Option(names = "--runs", paramLabel = "N", converter = RoundsConverter.class, hidden = true)
  Integer runs;

  @Option(names = "--repeats", paramLabel = "N", converter = RoundsConverter.class, hidden = true)
  Integer repeats;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** @throws BadInputException for {@code --rounds} and a former name of it both given */
  public int rounds() {
    Integer former = runs != null ? runs : repeats;
    if (former == null) {
      return rounds;
    }
    if (runs != null && repeats != null || command.commandLine().getParseResult().hasMatchedOption("--rounds")) {
      throw new BadInputException("--runs and --repeats are former names of --rounds: give --rounds only");
    }
    return former;
  }

  /** The comparison rounds of a study run until decided ({@code looks}: its looks' last round), else {@link #rounds()}. */
  public int rounds(SequentialLooks looks) {
    return looks == null ? rounds() : looks.maxRounds();
  }
}
