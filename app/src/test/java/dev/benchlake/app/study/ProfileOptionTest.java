package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.app.study.duet.SwapRule;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenArgs;
import dev.benchlake.loadgen.LoadgenConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Issue 48 item 5: {@code --profile[=HZ]} of the quickstart and the studies reaches every measured
 * run (a pair's sides alike, through the side's loadgen command line) and no warm-up pass; a server
 * by URL is refused before anything runs, in one line. No server, no Spark.
 */
class ProfileOptionTest {
  @Command(name = "t")
  static final class Holder {
    @Mixin
    ProfileOption profile;
  }

  private static Integer parsed(String... args) {
    Holder holder = new Holder();
    new CommandLine(holder).parseArgs(args);
    return holder.profile.hz();
  }

  @Test
  void theOptionGivesTheDefaultRateAloneAndTheRateGiven() {
    assertThat(parsed()).isNull();
    assertThat(parsed("--profile")).isEqualTo(Loadgen.PROFILE_DEFAULT_HZ).isEqualTo(1000);
    assertThat(parsed("--profile=250")).isEqualTo(250);
  }

  @Test
  void everyMeasuredRunIsProfiledAPairsSidesAlikeAndNoWarmUpPass(@TempDir Path dir) {
    LoadgenConfig a = new Workload.Sysbench(List.of("point-select"), 1, 1000, 1, Duration.ofSeconds(1), null, null,
        Duration.ZERO).run(new LoadgenConfig.Embedded(17, Map.of(), null), 1, dir.resolve("a"), Map.of());
    LoadgenConfig b = a.withOutDir(dir.resolve("b"));
    SwapRule swap = SwapRule.PER_ROUND;
    StudyRuns.Pair pair = new StudyRuns.Pair("round 1", new SideRun("a", a, CpuList.parse("0")),
        new SideRun("b", b, CpuList.parse("1")), swap);

    StudyRuns.Pair profiled = (StudyRuns.Pair) StudyRuns.profiled(pair, 250);
    for (SideRun side : List.of(profiled.a(), profiled.b())) {
      assertThat(side.config().profileHz()).isEqualTo(250);
      assertThat(String.join(" ", LoadgenArgs.of(side.config()))).as("the side's loadgen command line")
          .contains("--profile 250");
      assertThat(side.config().forWarmUp(dir.resolve("w")).profileHz()).as("its warm-up passes").isNull();
    }
    assertThat(profiled.a().cpus()).isEqualTo(CpuList.parse("0"));
    StudyRuns.Alone alone = (StudyRuns.Alone) StudyRuns.profiled(new StudyRuns.Alone("run 1", a), 1000);
    assertThat(alone.config().profileHz()).isEqualTo(1000);
    assertThat(StudyRuns.profiled(pair, null)).isSameAs(pair);
  }

  @Test
  void aServerByUrlIsRefusedInOneLineBeforeAnythingRuns(@TempDir Path dir) {
    Path out = dir.resolve("study");
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "ab", "--profile", "--b-jdbc-url",
        "jdbc:postgresql://localhost:1/b", "--design", "interleaved", "--out", out.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().strip()).doesNotContain("\n").contains("--profile profiles embedded servers: a server by"
        + " URL's processes (--b-jdbc-url) are not the study's to profile");
    assertThat(out).doesNotExist();
  }
}
