package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.quickstart.QuickstartCommand;
import dev.benchlake.app.study.StudyCommand;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 46.2: a duet's write steps measure the servers, not the disk both sides share. */
class SharedDiskTest {
  @Test
  void aDuetsServersCommitWithoutWaitingForTheSharedDiskUnlessKeptDurableOrSetBySide() {
    assertThat(SharedDisk.settings(Map.of(), false)).containsExactly(Map.entry("synchronous_commit", "off"));
    assertThat(SharedDisk.settings(Map.of("shared_buffers", "1GB"), false))
        .containsOnly(Map.entry("shared_buffers", "1GB"), Map.entry("synchronous_commit", "off"));
    assertThat(SharedDisk.settings(Map.of(), true)).isEmpty();
    // A side's own setting wins, whatever its case.
    assertThat(SharedDisk.settings(Map.of("Synchronous_Commit", "on"), false))
        .containsExactly(Map.entry("Synchronous_Commit", "on"));
  }

  @Test
  void durableCommitsWithoutADuetIsOneLineAndNothingIsWritten(@TempDir Path dir) {
    for (List<String> args : List.of(
        List.of("study", "versions", "--pg", "14,17", "--design", "interleaved", "--durable-commits"),
        List.of("study", "ab", "--a-pg", "14", "--b-pg", "17", "--design", "sequential", "--durable-commits"),
        List.of("quickstart", "--design", "interleaved", "--durable-commits"))) {
      Object command = args.get(0).equals("study") ? new StudyCommand() : new QuickstartCommand();
      List<String> withOut = new java.util.ArrayList<>(args.subList(1, args.size()));
      withOut.addAll(List.of("--out", dir.resolve("out").toString()));
      CommandRun run = CommandRun.of(Cli.commandLine(command), withOut.toArray(String[]::new));
      assertThat(run.exitCode()).as(args.toString()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr().strip()).as(args.toString()).doesNotContain("\n")
          .endsWith("--durable-commits goes with --design duet (the other designs' commits are durable)");
    }
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void theHelpOfEveryDuetCommandSaysWhatItsWriteStepsMeasure() {
    for (List<String> help : List.of(List.of("study", "ab", "--help"), List.of("study", "versions", "--help"),
        List.of("quickstart", "--help"))) {
      Object command = help.get(0).equals("study") ? new StudyCommand() : new QuickstartCommand();
      String text = CommandRun.of(Cli.commandLine(command), help.subList(1, help.size()).toArray(String[]::new))
          .stdout().replaceAll("\\s+", " ");
      assertThat(text).as(help.toString()).contains("--durable-commits")
          .contains("By default a duet runs both sides with synchronous_commit=off");
    }
  }
}
