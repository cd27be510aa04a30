package dev.benchlake.app.study;

import dev.benchlake.core.cli.VersionProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code benchlake study}: whole studies in one command ({@code versions}, {@code ab}), and {@code clean} after them. */
@Command(name = "study", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    subcommands = {VersionsCommand.class, AbCommand.class, CleanCommand.class},
    description = "Run a whole study in one command: the load, the ingest and the reports; or remove what killed "
        + "studies left behind (study clean).")
public final class StudyCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing study: one of "
        + String.join(", ", spec.subcommands().keySet()));
  }
}
