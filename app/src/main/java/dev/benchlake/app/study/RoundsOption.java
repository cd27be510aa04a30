package dev.benchlake.app.study;

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

  @Option(names = {"--runs", "--repeats"}, paramLabel = "N", converter = RoundsConverter.class, hidden = true)
  Integer formerName;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** @throws BadInputException for {@code --rounds} and a former name of it both given */
  public int rounds() {
    if (formerName == null) {
      return rounds;
    }
    if (command.commandLine().getParseResult().hasMatchedOption("--rounds")) {
      throw new BadInputException("--runs and --repeats are --rounds' former names: give --rounds only");
    }
    return formerName;
  }
}
