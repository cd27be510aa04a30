package dev.benchlake.app;

import dev.benchlake.core.cli.Cli;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A subcommand of {@code benchlake}: its class and how to make one. Building a command's picocli
 * model means instantiating it and reflecting over every option of it and its mixins, which also
 * runs its class's static initialisers (loggers, table schemas): for the dozen commands, most of
 * a second of a JVM that runs one of them. So the root builds only the command it runs
 * ({@link #build()}); the others are only listed ({@link #listing()}), from their
 * {@code @Command} annotation alone.
 *
 * @param type the command's class ({@code @Command}-annotated)
 * @param factory makes a new instance (picocli keeps option values in it)
 */
record Subcommand(Class<?> type, Supplier<Object> factory) {
  Subcommand {
    if (type.getAnnotation(Command.class) == null) {
      throw new IllegalArgumentException(type.getName() + " has no @Command");
    }
  }

  static <T> Subcommand of(Class<T> type, Supplier<T> factory) {
    return new Subcommand(type, factory::get);
  }

  /** The name and aliases it is called by. */
  List<String> names() {
    Command command = type.getAnnotation(Command.class);
    List<String> names = new ArrayList<>(List.of(command.name()));
    names.addAll(List.of(command.aliases()));
    return names;
  }

  /** The real command line: its options, mixins and subcommands, ready to run. */
  CommandLine build() {
    return Cli.commandLine(factory.get());
  }

  /**
   * What the root's usage and its error messages need of this command, and nothing else: its
   * names and the text of its line in the command list. It cannot run (the root builds the
   * command it runs); {@code RootCommandTest} proves that the usage it gives is the real one's.
   */
  CommandLine listing() {
    Command command = type.getAnnotation(Command.class);
    CommandSpec spec = CommandSpec.wrapWithoutInspection((Runnable) () -> {
      throw new IllegalStateException(command.name() + " was only listed, not built");
    });
    spec.name(command.name()).aliases(command.aliases());
    spec.usageMessage().header(command.header()).description(command.description()).hidden(command.hidden());
    return new CommandLine(spec);
  }
}
