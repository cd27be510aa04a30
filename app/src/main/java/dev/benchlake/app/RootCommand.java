package dev.benchlake.app;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.VersionProvider;
import java.util.List;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code benchlake} root command: usage, version, and the subcommands it is given. It names no
 * subcommand class itself, so that the spark-submit jar, which lacks the client commands' classes,
 * can use it too.
 */
@Command(name = "benchlake", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "A results warehouse and statistics engine for database benchmarks.",
      "Run 'benchlake COMMAND --help' for the options of a command."
    },
    commandListHeading = "%nCommands:%n",
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 a --fail-on gate failed (compare, quickstart, study)."})
final class RootCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: one of "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** The command line with every one of {@code commands} built (batch, tests, in-process use). */
  static CommandLine withSubcommands(List<Subcommand> commands) {
    return withSubcommands(commands, command -> true);
  }

  /**
   * The command line to run {@code args} once: the command they name is built, the others only
   * listed ({@link Subcommand#listing()}), so that {@code benchlake runs} does not pay for
   * building {@code compare}. Parsing and usage are those of {@link #withSubcommands(List)}: the
   * root's options take no value, so its first word that is not an option names the command.
   */
  static CommandLine forArgs(List<Subcommand> commands, String[] args) {
    String named = commandWord(args);
    // "help COMMAND" prints COMMAND's usage, so it needs COMMAND built (all of them: rare and cheap enough).
    return withSubcommands(commands, command -> "help".equals(named) || command.names().contains(named));
  }

  /** The first word that is not an option ({@code -h}, {@code --version}…), or null. */
  static String commandWord(String[] args) {
    for (String arg : args) {
      if (!arg.startsWith("-")) {
        return arg;
      }
    }
    return null;
  }

  private static CommandLine withSubcommands(List<Subcommand> commands, Predicate<Subcommand> built) {
    CommandLine cl = Cli.commandLine(new RootCommand());
    for (Subcommand command : commands) {
      cl.addSubcommand(built.test(command) ? command.build() : command.listing());
    }
    cl.addSubcommand(new CommandLine.HelpCommand());
    return cl;
  }
}
