package dev.benchlake.app;

import dev.benchlake.app.batch.BatchCommand;
import dev.benchlake.app.quickstart.QuickstartCommand;
import dev.benchlake.app.study.StudyCommand;
import dev.benchlake.loadgen.LoadgenCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * {@code benchlake}: the entry point of every command (bin/benchlake runs this class): the client
 * commands and every Spark command of {@link SparkMain}. It only wires commands together; each
 * command lives in its module.
 */
public final class Benchlake {
  /** Commands that run on the client: the load generator, and what drives the whole chain. */
  static final List<Supplier<Object>> CLIENT_COMMANDS = List.of(LoadgenCommand::new, QuickstartCommand::new,
      StudyCommand::new, () -> new BatchCommand(Benchlake::commandLine));

  private Benchlake() {}

  /** The full command line, for bin/benchlake and in-process use. */
  static CommandLine commandLine() {
    List<Supplier<Object>> all = new ArrayList<>(CLIENT_COMMANDS);
    all.addAll(SparkMain.COMMANDS);
    return RootCommand.withSubcommands(all);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
