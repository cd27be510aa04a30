package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code benchlake calibrate}'s options (issue 46.3): sizes as percentages, designs it can run, read
 * steps and one client; a bad one is one line and exit 2 with nothing written. No server, no Spark.
 */
class CalibrateCommandTest {
  private static CalibrateOptions parsed(String... args) {
    CalibrateCommand command = new CalibrateCommand();
    Cli.commandLine(command).parseArgs(args);
    return command.calibrate;
  }

  @Test
  void sizesArePercentagesInTheOrderGiven() {
    assertThat(parsed("--sizes", "3%, 5%,10%,15%").sizes()).containsExactly(0.03, 0.05, 0.10, 0.15);
    assertThat(parsed("--sizes", "2.5%,100%").sizes()).containsExactly(0.025, 1.0);
    assertThat(parsed("--designs", "interleaved,duet").designs()).containsExactly(Design.INTERLEAVED, Design.DUET);
    assertThat(CalibratePlan.percent(0.025)).isEqualTo("2.5%");
    assertThat(CalibratePlan.percent(0.1)).isEqualTo("10%");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--sizes 0%                      | --sizes: '0%' is not a handicap size: give percentages above 0% and at most 100%",
      "--sizes -5%                     | --sizes: '-5%' is not a handicap size",
      "--sizes 150%                    | --sizes: '150%' is not a handicap size",
      "--sizes 0.05                    | --sizes: '0.05' is not a handicap size",
      "--sizes 5%,,10%                 | --sizes: '' is not a handicap size",
      "--sizes 5%,5%                   | --sizes: '5%' is not a handicap size: give percentages above 0% and at most 100%, each once",
      "--designs sequential            | --designs: 'sequential': give duet, interleaved or both, each once",
      "--designs duet,duet             | --designs: 'duet': give duet, interleaved or both, each once",
      "--designs interleaved --steps insert | --steps: calibrate runs read steps (e.g. point-select, read-only), not insert",
      "--designs interleaved --clients 2 | --clients: calibrate runs one client per side, not 2",
      "--designs interleaved --rounds 1 | --rounds must be at least 2",
      "--designs interleaved --until-decided | --until-decided: calibrate runs a fixed number of rounds",
      "--designs interleaved --pg 10   | no embedded PostgreSQL 10 for this platform",
  })
  void aBadOptionIsOneLineAndExit2WithNothingWritten(String args, String message, @TempDir Path dir) {
    Path out = dir.resolve("cal");
    CommandRun run = CommandRun.of(Cli.commandLine(new CalibrateCommand()), Stream.concat(
        Stream.of(args.trim().split("\\s+")), Stream.of("--out", out.toString())).toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr()).containsOnlyOnce("\n").contains(message);
    assertThat(out).doesNotExist();
  }

  @Test
  void theDefaultsAreTwoReadStepsOneClientAndTenPercentByBothDesigns() {
    CalibrateCommand command = new CalibrateCommand();
    Cli.commandLine(command).parseArgs();
    assertThat(command.calibrate.sizes()).containsExactly(0.10);
    assertThat(command.calibrate.designs()).containsExactly(Design.DUET, Design.INTERLEAVED);
    assertThat(command.options.sysbench.workload(null).steps()).isEqualTo(List.of("point-select", "read-only"));
    assertThat(command.options.sysbench.workload(null).clients()).isEqualTo(1);
  }
}
