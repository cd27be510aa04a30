package dev.benchlake.app;

import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.ingest.cli.RunsCommand;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code benchlake}: the one entry point of every command (bin/benchlake runs this class).
 * It only wires subcommands together; each command lives in its module.
 */
@Command(name = "benchlake", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "A results warehouse and statistics engine for database benchmarks.",
      "Run 'benchlake COMMAND --help' for the options of a command."
    },
    commandListHeading = "%nCommands:%n",
    footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input, 3 regression found (compare --fail-on)."})
public final class Benchlake implements Runnable {
  /** Commands that need Spark: these are all the shaded spark-submit jar offers. */
  static final List<Supplier<Object>> SPARK_COMMANDS = List.of(RunsCommand::new, CompareCommand::new);

  /** Commands that run on the client (the load generator, the quickstart that drives everything). */
  static final List<Supplier<Object>> CLIENT_COMMANDS = List.of();

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: one of "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** The command line with the given subcommands. */
  static CommandLine commandLine(List<Supplier<Object>> commands) {
    CommandLine cl = Cli.commandLine(new Benchlake());
    for (Supplier<Object> command : commands) {
      cl.addSubcommand(Cli.commandLine(command.get()));
    }
    cl.addSubcommand(new CommandLine.HelpCommand());
    return cl;
  }

  static List<Supplier<Object>> allCommands() {
    return concat(CLIENT_COMMANDS, SPARK_COMMANDS);
  }

  private static List<Supplier<Object>> concat(List<Supplier<Object>> a, List<Supplier<Object>> b) {
    java.util.ArrayList<Supplier<Object>> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  public static void main(String[] args) {
    System.exit(commandLine(allCommands()).execute(args));
  }
}
