package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What spark-submit can run: the Spark commands, and a batch of them (and of nothing else: checked before any runs). */
class SparkMainTest {
  @TempDir
  Path tmp;

  @Test
  void aSubmittedBatchRunsSparkCommands() throws Exception {
    Path commands = Files.writeString(tmp.resolve("commands.txt"), "runs --help\ncompare --help\n");
    CommandRun run = CommandRun.of(SparkMain.commandLine(), "batch", commands.toString());
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("Usage: benchlake runs").contains("Usage: benchlake compare");
  }

  @Test
  void aSubmittedBatchRefusesAClientCommandBeforeRunningAnything() throws Exception {
    Path commands = Files.writeString(tmp.resolve("commands.txt"), "runs --help\nloadgen --tasks 10\ncompare --help\n");
    CommandRun run = CommandRun.of(SparkMain.commandLine(), "batch", "--keep-going", commands.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains(commands + ": line 2: Unmatched arguments from index 0: 'loadgen'")
        .doesNotContain("batch: line 1");
  }
}
