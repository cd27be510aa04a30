package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.app.quickstart.QuickstartCommand;
import dev.benchlake.app.quickstart.QuickstartPlan;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.BetweenSteps;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The quickstart, {@code study ab} and {@code study versions} are presets of one study (issue 45.1):
 * one set of study options, each command with its own defaults. {@code --rounds} everywhere (the
 * former {@code --runs} and {@code --repeats} still read, hidden), the statistics options on all
 * three with the defaults the quickstart and {@code study ab} had fixed, and the sysbench options
 * declared once.
 */
class StudyPresetsTest {
  private static final Map<String, Supplier<Object>> PRESETS = Map.of(
      "quickstart", QuickstartCommand::new, "ab", AbCommand::new, "versions", VersionsCommand::new);

  private static CommandLine parsed(String preset, String... args) {
    CommandLine line = Cli.commandLine(PRESETS.get(preset).get());
    line.parseArgs(args);
    return line;
  }

  /** A mixin of the command, or of one of its mixins. */
  private static Object mixin(CommandLine line, String name) {
    return mixin(line.getCommandSpec(), name);
  }

  private static Object mixin(CommandLine.Model.CommandSpec spec, String name) {
    if (spec.mixins().containsKey(name)) {
      return spec.mixins().get(name).userObject();
    }
    return spec.mixins().values().stream().map(m -> mixin(m, name)).filter(java.util.Objects::nonNull).findFirst()
        .orElse(null);
  }

  private static int rounds(CommandLine line) {
    return ((RoundsOption) mixin(line, "rounds")).rounds();
  }

  @Test
  void everyPresetTakesRoundsAndReadsItsFormerNameHidden() {
    Map<String, Integer> defaults = Map.of("quickstart", 5, "ab", 5, "versions", 2);
    defaults.forEach((preset, rounds) -> {
      assertThat(rounds(parsed(preset))).as(preset)
          .isEqualTo(rounds);
      assertThat(rounds(parsed(preset, "--rounds", "7"))).isEqualTo(7);
      String help = parsed(preset).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
      assertThat(help).as(preset).contains("--rounds=N Comparison rounds: runs per side (default: " + rounds + ").")
          .doesNotContain("--runs").doesNotContain("--repeats");
    });
    assertThat(rounds(parsed("quickstart", "--runs", "3"))).as("the quickstart's --runs, as README lines and scripts have it").isEqualTo(3);
    assertThat(rounds(parsed("versions", "--repeats", "4"))).as("study versions' --repeats").isEqualTo(4);
  }

  @Test
  void everyPresetTakesTheStatisticsOptionsWithTheDefaultsItHad() {
    for (String preset : PRESETS.keySet()) {
      String help = parsed(preset).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
      assertThat(help).as(preset).contains("--alpha=A Significance level in (0, 0.5) (default: 0.05)")
          .contains("(default: 5%; written 5% or 0.05)").contains("--correction=METHOD");
    }
  }

  @Test
  void aBadMarginIsOneLineAndExit2InEveryPresetWithNothingWritten(@TempDir Path dir) {
    for (String preset : PRESETS.keySet()) {
      Path out = dir.resolve(preset);
      List<String> args = List.of("--margin", "150%", "--out", out.toString());
      CommandRun run = preset.equals("quickstart") ? CommandRun.of(Cli.commandLine(new QuickstartCommand()),
          args.toArray(String[]::new)) : CommandRun.of(Cli.commandLine(new StudyCommand()),
          java.util.stream.Stream.concat(java.util.stream.Stream.of(preset), args.stream()).toArray(String[]::new));
      assertThat(run.exitCode()).as(preset).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr()).as(preset).containsOnlyOnce("\n").contains("--margin 1.5 is not in (0, 1)");
      assertThat(out).doesNotExist();
    }
  }

  @Test
  void theSysbenchOptionsAreDeclaredOnceWithEachStudysDefaults() {
    Workload.Sysbench ab = ((SysbenchOptions) mixin(parsed("ab"), "sysbench")).workload(null);
    assertThat(ab).isEqualTo(new Workload.Sysbench(List.of("point-select", "read-only", "update-index", "insert"), 1,
        10_000, SysbenchOptions.UNPAIRED_CLIENTS, java.time.Duration.ofSeconds(10), null, null,
        java.time.Duration.ofSeconds(2)));
    Workload.Sysbench versions = ((SysbenchOptions) mixin(parsed("versions"), "sysbench")).workload(null);
    assertThat(versions.byKind()).isEqualTo(new Workload.Sysbench(List.of("mytools"), 4, 10_000, 1, null,
        java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(1), java.time.Duration.ZERO));
    Workload.Sysbench given = ((SysbenchOptions) mixin(parsed("versions", "--clients", "auto", "--read-duration", "3s"),
        "sysbench")).workload(DuetCpus.choose(dev.benchlake.core.CpuList.parse("0-5"), null, null));
    assertThat(given.clients()).as("auto: a duet side's CPUs").isEqualTo(3);
    assertThat(given.byKind().readDuration()).isEqualTo(java.time.Duration.ofSeconds(3));
    assertThat(given.byKind().writeDuration()).as("--duration's").isEqualTo(java.time.Duration.ofSeconds(1));
  }

  /**
   * Issue 47 item 6: --preset published-small is the 2023 sequence on 4 tables of 1M rows with 10 s
   * reads, 20 s writes and 2 s warm-ups; an option given on the command line wins over it, and
   * --duration keeps the preset's step durations out.
   */
  @Test
  void thePublishedSmallPresetFillsWhatTheCommandLineDoesNotGive() {
    CommandLine line = parsed("versions", "--preset", "published-small");
    ((VersionsCommand) line.getCommand()).applyPreset();
    Workload.Sysbench preset = ((SysbenchOptions) mixin(line, "sysbench")).workload(null);
    assertThat(preset.byKind()).isEqualTo(new Workload.Sysbench(List.of("mytools-2023"), 4, 1_000_000, 1, null,
        java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(20), java.time.Duration.ofSeconds(2)));

    CommandLine mine = parsed("versions", "--table-size", "50000", "--preset", "published-small", "--duration", "3s");
    ((VersionsCommand) mine.getCommand()).applyPreset();
    Workload.Sysbench given = ((SysbenchOptions) mixin(mine, "sysbench")).workload(null);
    assertThat(given.byKind()).isEqualTo(new Workload.Sysbench(List.of("mytools-2023"), 4, 50_000, 1, null,
        java.time.Duration.ofSeconds(3), java.time.Duration.ofSeconds(3), java.time.Duration.ofSeconds(2)));

    CommandLine unknown = parsed("versions", "--preset", "published-large");
    assertThatThrownBy(() -> ((VersionsCommand) unknown.getCommand()).applyPreset())
        .isInstanceOf(dev.benchlake.core.cli.BadInputException.class)
        .hasMessage("unknown --preset 'published-large'; known: published-small");
  }

  /**
   * Issue 49: the quickstart's sides start every sysbench step from the same table state, each side's
   * {@code VACUUM (ANALYZE)} after the step before, unless told otherwise; each run's loadgen gets it.
   */
  @Test
  void theQuickstartVacuumsBetweenStepsUnlessTold() {
    Map<String, BetweenSteps> given = Map.of("", BetweenSteps.VACUUM_ANALYZE, "none", BetweenSteps.NONE);
    given.forEach((value, expected) -> {
      CommandLine.Model.OptionSpec option = (value.isEmpty() ? parsed("quickstart")
          : parsed("quickstart", "--between-steps", value)).getCommandSpec().findOption("--between-steps");
      assertThat(option).as("the quickstart's --between-steps").isNotNull();
      BetweenSteps chosen = option.getValue();
      assertThat(chosen).as("--between-steps " + value).isEqualTo(expected);
      Workload.Sysbench sysbench = (Workload.Sysbench) QuickstartPlan.workloads(java.time.Duration.ofSeconds(1),
          java.time.Duration.ofMillis(500), chosen).get(1);
      assertThat(sysbench.run(new LoadgenConfig.Embedded(17, Map.of(), null), 1L, Path.of("run"), Map.of())
          .betweenSteps()).isEqualTo(expected);
    });
  }
}
