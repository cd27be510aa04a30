package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line and the Java API start from the same defaults (LoadgenDefaults). */
class LoadgenDefaultsTest {
  @Test
  void aCommandLineWithoutOptionsGivesTheBuildersConfiguration() {
    LoadgenCommand command = new LoadgenCommand();
    CommandLine cl = Cli.commandLine(command);
    cl.parseArgs("--workload", "select-update", "--tasks", "5", "--out", "run");
    LoadgenConfig fromCli = command.config();
    LoadgenConfig fromApi = LoadgenConfig.builder().workload("select-update").tasks(5L).outDir(Path.of("run"))
        .build();
    assertThat(fromCli.toString().replaceAll("randomSeed=\\d+", "")).isEqualTo(
        fromApi.toString().replaceAll("randomSeed=\\d+", ""));
  }

  @Test
  void theHelpShowsTheDefaultsAsAUserWouldTypeThem() {
    // Whitespace normalised: picocli wraps the descriptions at its own width.
    String help = Cli.commandLine(new LoadgenCommand()).getUsageMessage().replaceAll("\\s+", " ");
    assertThat(help).contains("--scale=<scale>").contains("(default: 1).")
        .contains("(default: " + LoadgenDefaults.PG_MAJOR + ")")
        .contains("longest wait for a pooled connection before the task fails (default: 15s)")
        .contains("(default: 10s)").contains("(default: 60s)").contains("(default: uniform)")
        .contains("(default: poisson)").contains("(default: 0s)").contains("(default: 10000)");
  }
}
