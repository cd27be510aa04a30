package dev.benchlake.analysis.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --alpha}, {@code --margin} and {@code --correction} are checked in one place
 * ({@code StatisticsSettings}) with one range each, the same for {@code compare} and {@code trend}:
 * a bad value is one line on stderr naming the option, exit 2, before any warehouse is opened
 * and with nothing written.
 */
class StatisticsOptionsTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({
      "compare, --alpha, 0.5, --alpha 0.5 is not in (0, 0.5)",
      "trend, --alpha, 0.5, --alpha 0.5 is not in (0, 0.5)",
      "trend, --alpha, 2, --alpha 2 is not in (0, 0.5)",
      "compare, --alpha, abc, --alpha 'abc' is not a number",
      "trend, --margin, 0, --margin 0 is not in (0, 1)",
      "compare, --margin, 0%, --margin 0 is not in (0, 1)",
      "compare, --margin, 150%, --margin 1.5 is not in (0, 1)",
      "trend, --margin, 5, --margin 5 is not in (0, 1)",
      "compare, --correction, sidak, --correction 'sidak' is not one of",
      "trend, --correction, sidak, --correction 'sidak' is not one of"})
  void aBadValueIsOneLineAndExitTwoBeforeAnythingIsRead(String command, String option, String value, String message) {
    Path out = dir.resolve("out");
    List<String> args = new ArrayList<>(List.of("--warehouse", dir.resolve("warehouse").toString(), "--out",
        out.toString(), option, value));
    Supplier<Callable<Integer>> cli;
    if (command.equals("compare")) {
      args.addAll(List.of("--baseline", "os=linux", "--candidate", "os=windows"));
      cli = CompareCommand::new;
    } else {
      args.addAll(List.of("--by", "db_major"));
      cli = TrendCommand::new;
    }
    CommandRun run = CommandRun.of(cli.get(), args);
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr()).as("one line").containsOnlyOnce("\n").endsWith("\n").contains(message)
        .startsWith(command + ": ");
    assertThat(out).doesNotExist();
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }
}
