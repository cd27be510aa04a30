package dev.benchlake.app;

import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.app.batch.BatchCommand;
import dev.benchlake.core.redaction.RedactedLogs;
import dev.benchlake.analysis.cli.HistoryCommand;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.cli.RejectsCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.cli.UpgradeCommand;
import dev.benchlake.warehouse.cli.VerifyCommand;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Entry point of the spark-submit jar ({@code benchlake-spark.jar}): the Spark commands only,
 * e.g. {@code spark-submit --class dev.benchlake.app.SparkMain benchlake-spark.jar ingest …}, and
 * {@code batch} of them: one application, whose driver and executors start once for all its
 * commands (on a cluster, each application waits for its executors to be launched).
 */
public final class SparkMain {
  /**
   * The warehouse's commands: all that the shaded spark-submit jar offers. runs, rejects, export of
   * the small tables and verify read with Delta Kernel, without Spark; they are here too, to read a
   * cluster's warehouse from its driver.
   */
  static final List<Subcommand> COMMANDS = List.of(Subcommand.of(RunsCommand.class, RunsCommand::new),
      Subcommand.of(IngestCommand.class, IngestCommand::new), Subcommand.of(ExportCommand.class, ExportCommand::new),
      Subcommand.of(RejectsCommand.class, RejectsCommand::new), Subcommand.of(UpgradeCommand.class, UpgradeCommand::new),
      Subcommand.of(VerifyCommand.class, VerifyCommand::new),
      Subcommand.of(CompareCommand.class, CompareCommand::new), Subcommand.of(TrendCommand.class, TrendCommand::new),
      Subcommand.of(HistoryCommand.class, HistoryCommand::new));
  /** What spark-submit can run: the Spark commands, and a batch of them. */
  static final List<Subcommand> SUBMITTABLE = withBatch();

  private SparkMain() {}

  private static List<Subcommand> withBatch() {
    List<Subcommand> all = new ArrayList<>(COMMANDS);
    all.add(Subcommand.of(BatchCommand.class, () -> new BatchCommand(SparkMain::commandLine)));
    return List.copyOf(all);
  }

  /** A fresh command line of every submittable command (a batch builds one per line). */
  static CommandLine commandLine() {
    return RootCommand.withSubcommands(SUBMITTABLE);
  }

  public static void main(String[] args) {
    // spark-submit's driver logs through Spark's (or the cluster's) log4j configuration, not
    // bin/benchlake's: put its appenders behind the same redaction.
    RedactedLogs.install();
    System.exit(RootCommand.forArgs(SUBMITTABLE, args).execute(args));
  }
}
