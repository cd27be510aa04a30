package dev.benchlake.app;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.VersionProvider;
import java.util.List;
import java.util.function.Supplier;
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
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 regression found (compare --fail-on)."})
final class RootCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: one of "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** The command line with the given subcommands. */
  static CommandLine withSubcommands(List<Supplier<Object>> commands) {
    CommandLine cl = Cli.commandLine(new RootCommand());
    for (Supplier<Object> command : commands) {
      cl.addSubcommand(Cli.commandLine(command.get()));
    }
    cl.addSubcommand(new CommandLine.HelpCommand());
    return cl;
  }
}
