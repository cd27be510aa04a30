package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.quickstart.QuickstartCommand;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --budget} shorter than one round of the plan (its steps' warm-ups and measured times, a
 * lower bound) is refused before anything runs: one line, exit 2, nothing written (issue 47).
 */
class BudgetTest {
  @Test
  void aBudgetShorterThanOneRoundOfTheVersionStudyIsBadInput(@TempDir Path dir) {
    Path out = dir.resolve("study");
    // 48 steps of 1 s: a round is at least 48 s.
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17", "--design",
        "duet", "--budget", "30s", "--out", out.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().strip()).doesNotContain("\n")
        .contains("--budget 30 s is shorter than one round of this study (at least ");
    assertThat(out).doesNotExist();
  }

  /**
   * A version study of three majors runs two pairs a comparison round, an a/a round one: a budget
   * for one pair and not two was let through when the seed put an a/a round first.
   */
  @Test
  void aBudgetForTheAaRoundButNotOneComparisonRoundOfThreeMajorsIsBadInput() {
    long seed = java.util.stream.LongStream.range(0, 1000)
        .filter(s -> new dev.benchlake.app.study.duet.DuetSchedule(4, 2, s).order().get(0).aa()).findFirst()
        .orElseThrow();
    // One step of 10 s: an a/a round is at least 10 s, a comparison round (11v14, 11v17) 20 s.
    VersionStudyPlan plan = new VersionStudyPlan(java.util.List.of(11, 14, 17), 4, seed, new Workload.Sysbench(
        java.util.List.of("point-query_range=100"), 1, 1000, 1, null, java.time.Duration.ofSeconds(10),
        java.time.Duration.ofSeconds(10), java.time.Duration.ZERO), java.util.Map.of(), null, Design.DUET, 2,
        dev.benchlake.app.study.duet.DuetCpus.choose(dev.benchlake.core.CpuList.parse("0-1"), null, null), null);
    assertThat(plan.schedule().order().get(0).aa()).isTrue();
    assertThat(Budget.leastRound(plan)).isEqualTo(java.time.Duration.ofSeconds(20));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Budget.check(java.time.Duration.ofSeconds(15), plan))
        .isInstanceOf(dev.benchlake.core.cli.BadInputException.class)
        .hasMessageContaining("--budget 15 s is shorter than one round of this study (at least 20 s");
  }

  @Test
  void aBudgetShorterThanOneRoundOfTheQuickstartIsBadInput(@TempDir Path dir) {
    Path out = dir.resolve("quickstart");
    // select-update's 1 s warm-up, and 4 sysbench steps of 0.5 s warm-up and 1 s: at least 7 s.
    CommandRun run = CommandRun.of(Cli.commandLine(new QuickstartCommand()), "--budget", "6s", "--out",
        out.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().strip()).doesNotContain("\n")
        .contains("--budget 6 s is shorter than one round of this study (at least 7 s");
    assertThat(out).doesNotExist();
    CommandRun fixed = CommandRun.of(Cli.commandLine(new QuickstartCommand()), "--budget", "30m", "--no-until-decided",
        "--out", out.toString());
    assertThat(fixed.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(fixed.stderr()).contains("--budget spends its time on a duet run until decided");
    assertThat(out).doesNotExist();
  }
}
