package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code study versions} refuses bad input before anything runs (exit 2, nothing written). */
class VersionsCommandTest {
  @Test
  void aMajorWithoutEmbeddedBinariesIsBadInputBeforeAnythingRuns(@TempDir Path dir) {
    Path out = dir.resolve("study");
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,9",
        "--out", out.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr()).contains("--pg 9: no embedded PostgreSQL 9").contains("available: 11, 12, 13, 14, 15, 16, 17");
    assertThat(out).doesNotExist();
  }

  @Test
  void aBadStepOrAUsedFolderIsBadInputBeforeAnythingRuns(@TempDir Path dir) throws Exception {
    CommandRun step = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--steps", "point-query_range=100,nope", "--out", dir.resolve("a").toString());
    assertThat(step.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(step.stderr()).contains("unknown step 'nope'");
    assertThat(dir.resolve("a")).doesNotExist();

    Path used = Files.createDirectories(dir.resolve("used"));
    Files.writeString(used.resolve("notes.txt"), "mine");
    CommandRun folder = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--out", used.toString());
    assertThat(folder.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(folder.stderr()).contains("is not empty; give a new folder for each study");

    CommandRun one = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14",
        "--out", dir.resolve("b").toString());
    assertThat(one.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(one.stderr()).contains("at least two different PostgreSQL majors");
  }
}
