package dev.benchlake.app;

import dev.benchlake.app.batch.BatchCommand;
import dev.benchlake.app.quickstart.QuickstartCommand;
import dev.benchlake.app.study.CalibrateCommand;
import dev.benchlake.app.study.StudyCommand;
import dev.benchlake.core.redaction.RedactedLogs;
import dev.benchlake.loadgen.LoadgenCommand;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code benchlake}: the entry point of every command (bin/benchlake runs this class): the client
 * commands and every Spark command of {@link SparkMain}. It only wires commands together; each
 * command lives in its module.
 */
public final class Benchlake {
  /** Commands that run on the client: the load generator, and what drives the whole chain. */
  static final List<Subcommand> CLIENT_COMMANDS = List.of(Subcommand.of(LoadgenCommand.class, LoadgenCommand::new),
      Subcommand.of(QuickstartCommand.class, QuickstartCommand::new), Subcommand.of(StudyCommand.class, StudyCommand::new),
      Subcommand.of(CalibrateCommand.class, CalibrateCommand::new),
      Subcommand.of(BatchCommand.class, () -> new BatchCommand(Benchlake::commandLine)));

  private Benchlake() {}

  /** Every command, in the order of the usage. */
  static List<Subcommand> commands() {
    List<Subcommand> all = new ArrayList<>(CLIENT_COMMANDS);
    all.addAll(SparkMain.COMMANDS);
    return all;
  }

  /** The full command line, every command built: for a batch (a fresh one per line) and in-process use. */
  static CommandLine commandLine() {
    return RootCommand.withSubcommands(commands());
  }

  /** bin/benchlake: only the command that runs is built (see {@link RootCommand#forArgs}). */
  public static void main(String[] args) {
    // bin/benchlake's log4j configuration redacts every event; pgjdbc logs through java.util.logging.
    RedactedLogs.routeJavaUtilLogging();
    System.exit(RootCommand.forArgs(commands(), args).execute(args));
  }
}
