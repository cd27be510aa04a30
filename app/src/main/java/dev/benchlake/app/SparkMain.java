package dev.benchlake.app;

import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.cli.RejectsCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.cli.UpgradeCommand;
import java.util.List;
import picocli.CommandLine;

/**
 * Entry point of the spark-submit jar ({@code benchlake-spark.jar}): the Spark commands only,
 * e.g. {@code spark-submit --class dev.benchlake.app.SparkMain benchlake-spark.jar ingest …}.
 */
public final class SparkMain {
  /** Commands that need Spark: all that the shaded spark-submit jar offers. */
  static final List<Subcommand> COMMANDS = List.of(Subcommand.of(RunsCommand.class, RunsCommand::new),
      Subcommand.of(IngestCommand.class, IngestCommand::new), Subcommand.of(ExportCommand.class, ExportCommand::new),
      Subcommand.of(RejectsCommand.class, RejectsCommand::new), Subcommand.of(UpgradeCommand.class, UpgradeCommand::new),
      Subcommand.of(CompareCommand.class, CompareCommand::new), Subcommand.of(TrendCommand.class, TrendCommand::new));

  private SparkMain() {}

  static CommandLine commandLine() {
    return RootCommand.withSubcommands(COMMANDS);
  }

  public static void main(String[] args) {
    System.exit(RootCommand.forArgs(COMMANDS, args).execute(args));
  }
}
