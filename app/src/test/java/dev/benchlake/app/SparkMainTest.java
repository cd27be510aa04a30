package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What spark-submit can run: the Spark commands, and a batch of them (and of nothing else). */
class SparkMainTest {
  @TempDir
  Path tmp;

  @Test
  void aSubmittedBatchRunsSparkCommandsAndRefusesAClientCommand() throws Exception {
    Path commands = Files.writeString(tmp.resolve("commands.txt"), "runs --help\nloadgen --tasks 10\ncompare --help\n");
    CommandRun run = CommandRun.of(SparkMain.commandLine(), "batch", "--keep-going", commands.toString());
    assertThat(run.stdout()).contains("Usage: benchlake runs").contains("Usage: benchlake compare");
    assertThat(run.stderr()).contains("batch: line 2: loadgen --tasks 10", "Unmatched arguments from index 0: 'loadgen'",
            "batch: line 2: exit code 2")
        .doesNotContain("batch: line 1: exit code").doesNotContain("batch: line 3: exit code");
    assertThat(run.exitCode()).isEqualTo(2);
  }
}
