package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.study.duet.SwapRule;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.loadgen.LoadgenConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

    // A study cut short (killed): refused too, saying so; its study.json stays as it was.
    Path cut = Files.createDirectories(dir.resolve("cut"));
    Files.writeString(cut.resolve("study.json"), "{\"complete\" : false, \"order\" : [ ]}\n");
    CommandRun again = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--out", cut.toString());
    assertThat(again.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(again.stderr()).contains("it holds a study that did not finish: its study.json says \"complete\": "
        + "false; its runs stay there");
    assertThat(Files.readString(cut.resolve("study.json"))).isEqualTo("{\"complete\" : false, \"order\" : [ ]}\n");

    CommandRun one = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14",
        "--out", dir.resolve("b").toString());
    assertThat(one.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(one.stderr()).contains("at least two different PostgreSQL majors");
  }

  @Test
  void theTrendsStatisticsSettingsAreCheckedAsCompareAndTrendCheckThem(@TempDir Path dir) {
    Path out = dir.resolve("study");
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--margin", "150%", "--out", out.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr()).containsOnlyOnce("\n").contains("--margin 1.5 is not in (0, 1)");
    assertThat(out).doesNotExist();
  }

  /** Issue 26.4: the options that run the study as it was run, and a help that states its settings. */
  @Test
  void theHelpStatesThePublishedSettingsAndNever900Seconds() {
    CommandRun help = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--help");
    assertThat(help.exitCode()).isEqualTo(ExitCode.OK);
    String text = help.stdout().replaceAll("\\s+", " ");
    assertThat(text).contains("8 clients on 4 tables of 20M rows, 600 s for each read step and 1200 s for each write step")
        .contains("--clients 8 --tables 4 --table-size 20000000 --read-duration 600s --write-duration 1200s")
        .contains("each client scans every table once, and its qps is the rows scanned per second")
        .contains("9.4 hours a run").contains("--steps mytools-2023")
        .doesNotContain("900");
    for (String option : List.of("--pg-setting", "--clients", "--tables", "--table-size", "--read-duration",
        "--write-duration", "--design", "--aa-rounds", "--cpus-a", "--cpus-b", "--cpu-swap")) {
      assertThat(text).contains(option);
    }
  }

  /** picocli reads descriptions as format strings: a bare '%' makes it warn on stderr and print them raw. */
  @Test
  void theStudiesHelpsFormatWithoutAWarning() {
    java.io.PrintStream before = System.err;
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      for (String study : List.of("versions", "ab")) {
        assertThat(CommandRun.of(Cli.commandLine(new StudyCommand()), study, "--help").stdout()).contains("--design");
      }
      assertThat(CommandRun.of(Cli.commandLine(new dev.benchlake.app.quickstart.QuickstartCommand()), "--help")
          .stdout()).contains("--design");
    } finally {
      System.setErr(before);
    }
    assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("WARN");
  }

  /** --cpu-swap: a mode that does not exist, or one without a duet, is one line and exit 2 with nothing written. */
  @Test
  void aCpuSwapThatIsUnknownOrWithoutADuetIsBadInput(@TempDir Path dir) {
    CommandRun unknown = CommandRun.of(Cli.commandLine(new StudyCommand()), "ab", "--a-pg", "14", "--b-pg", "17",
        "--cpu-swap", "sometimes", "--out", dir.resolve("a").toString());
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(unknown.stderr()).containsOnlyOnce("\n")
        .contains("--cpu-swap 'sometimes': give auto, in-window, in-window-cgroup, in-window-affinity or per-round");
    CommandRun interleaved = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--design", "interleaved", "--cpu-swap", "in-window", "--out", dir.resolve("b").toString());
    assertThat(interleaved.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(interleaved.stderr()).containsOnlyOnce("\n").contains("--cpu-swap goes with --design duet");
    assertThat(dir.resolve("a")).doesNotExist();
    assertThat(dir.resolve("b")).doesNotExist();
  }

  /**
   * Issue 45: --swap-period, the in-window swap's period, is an option every duet command takes, checked as it is
   * read (10ms to 10s) and refused without an in-window duet: one line, exit 2, nothing written. Its help reads
   * the default from the code, and no help types the period by hand.
   */
  @Test
  void aSwapPeriodOutOfRangeOrWithoutAnInWindowDuetIsOneLineAndNothingIsWritten(@TempDir Path dir) {
    Map<List<String>, String> cases = new java.util.LinkedHashMap<>();
    for (String period : List.of("0s", "5ms", "11s")) {
      cases.put(List.of("study", "ab", "--a-pg", "14", "--b-pg", "17", "--swap-period", period, "--out",
          dir.resolve("a").toString()), "'" + period + "' is not from 10ms to 10s");
    }
    cases.put(List.of("study", "ab", "--a-pg", "14", "--b-pg", "17", "--swap-period", "100", "--out",
        dir.resolve("a").toString()), "'100'");
    cases.put(List.of("study", "versions", "--pg", "14,17", "--design", "interleaved", "--swap-period", "50ms",
        "--out", dir.resolve("b").toString()), "--swap-period goes with --design duet");
    cases.put(List.of("study", "ab", "--a-pg", "14", "--b-pg", "17", "--cpu-swap", "per-round", "--swap-period",
        "50ms", "--out", dir.resolve("c").toString()), "--swap-period goes with --cpu-swap in-window");
    cases.put(List.of("quickstart", "--design", "duet", "--swap-period", "-1s", "--out", dir.resolve("q").toString()),
        "--swap-period");
    cases.forEach((args, message) -> {
      Object command = args.get(0).equals("study") ? new StudyCommand()
          : new dev.benchlake.app.quickstart.QuickstartCommand();
      CommandRun run = CommandRun.of(Cli.commandLine(command), args.subList(1, args.size()).toArray(String[]::new));
      assertThat(run.exitCode()).as(args.toString()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr().strip()).as(args.toString()).contains(message).doesNotContain("\n");
    });
    assertThat(dir).isEmptyDirectory();
    for (List<String> help : List.of(List.of("study", "ab", "--help"), List.of("study", "versions", "--help"),
        List.of("quickstart", "--help"))) {
      Object command = help.get(0).equals("study") ? new StudyCommand()
          : new dev.benchlake.app.quickstart.QuickstartCommand();
      String text = CommandRun.of(Cli.commandLine(command), help.subList(1, help.size()).toArray(String[]::new))
          .stdout().replaceAll("\\s+", " ");
      assertThat(text).as(help.toString()).contains("--swap-period=DURATION")
          .contains("(default: " + SwapRule.DEFAULT_PERIOD + ")").doesNotContain("100 ms");
    }
  }

  @Test
  void aMalformedOrAReservedSettingIsBadInputBeforeAnythingRuns(@TempDir Path dir) {
    CommandRun malformed = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--pg-setting", "shared_buffers", "--out", dir.resolve("a").toString());
    assertThat(malformed.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(malformed.stderr()).contains("--pg-setting").contains("shared_buffers");
    assertThat(dir.resolve("a")).doesNotExist();
    CommandRun reserved = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--pg-setting", "port=5433", "--out", dir.resolve("b").toString());
    assertThat(reserved.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(reserved.stderr().strip()).isEqualTo(
        "study versions: --pg-setting: port is managed by loadgen for the embedded server");
    assertThat(dir.resolve("b")).doesNotExist();
  }

  @Test
  void theSettingsGoToEveryRunsServerWithTheStudysClientsTablesAndDurations() {
    VersionStudyPlan plan = new VersionStudyPlan(List.of(11, 16), 2, 5, new Workload.Sysbench(List.of("mytools"), 4,
        20_000_000, 8, null, Duration.ofSeconds(600), Duration.ofSeconds(1200), Duration.ofSeconds(5)),
        Map.of("shared_buffers", "1GB"), null, Design.INTERLEAVED, 2, null, null);
    List<StudyRuns.Measurement> runs = plan.measurements(Path.of("/s"), "v");
    assertThat(runs).hasSize(4);
    for (StudyRuns.Measurement m : runs) {
      LoadgenConfig c = ((StudyRuns.Alone) m).config();
      assertThat(((LoadgenConfig.Embedded) c.target()).settings()).containsExactly(Map.entry("shared_buffers", "1GB"));
      assertThat(c.mode().clients()).isEqualTo(8);
      assertThat(c.workload().tables()).isEqualTo(4);
      assertThat(c.workload().tableSize()).isEqualTo(20_000_000);
      assertThat(c.workload().readDuration()).isEqualTo(Duration.ofSeconds(600));
      assertThat(c.workload().writeDuration()).isEqualTo(Duration.ofSeconds(1200));
      assertThat(c.labels()).containsEntry("design", "interleaved");
    }
  }

  /** Issue 28.4: run until decided is a duet's, with at least 3 rounds; else one line, exit 2, nothing written. */
  @Test
  void untilDecidedWithoutADuetOrWithTooFewRoundsIsOneLineAndNothingIsWritten(@TempDir Path dir) {
    Map<List<String>, String> cases = new java.util.LinkedHashMap<>();
    cases.put(List.of("ab", "--a-pg", "14", "--b-pg", "17", "--design", "interleaved", "--until-decided", "--out",
        dir.resolve("i").toString()), "--until-decided runs a duet round by round");
    cases.put(List.of("ab", "--a-pg", "14", "--b-pg", "17", "--until-decided", "--max-rounds", "2", "--out",
        dir.resolve("m").toString()), "--max-rounds 2 is below the first look (after round 3)");
    cases.put(List.of("versions", "--pg", "14,17", "--until-decided", "--out", dir.resolve("v").toString()),
        "--until-decided runs a duet round by round");
    cases.put(List.of("versions", "--pg", "14,17", "--design", "duet", "--until-decided", "--max-rounds", "2",
        "--out", dir.resolve("w").toString()), "--max-rounds 2 is below the first look (after round 3)");
    cases.forEach((args, message) -> {
      CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), args.toArray(String[]::new));
      assertThat(run.exitCode()).as(args.toString()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr().strip()).as(args.toString()).contains(message).doesNotContain("\n");
    });
    CommandRun quickstart = CommandRun.of(Cli.commandLine(new dev.benchlake.app.quickstart.QuickstartCommand()),
        "--max-rounds", "2", "--out", dir.resolve("q").toString());
    assertThat(quickstart.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(quickstart.stderr().strip()).contains("--max-rounds 2 is below the first look").doesNotContain("\n");
    assertThat(dir).isEmptyDirectory();
  }

  /**
   * Issue 28.1: a machine with one CPU refuses a duet with one line, whichever command asks for it.
   * The machine of one CPU is this JVM's: {@code taskset -p} puts its main thread, whose affinity
   * {@code /proc/PID/status} shows, on its first CPU for the test (no hidden property stands in).
   */
  @Test
  void aDuetOnOneCpuIsOneLineAndNothingIsWritten(@TempDir Path dir) throws Exception {
    long pid = ProcessHandle.current().pid();
    CpuList before = CpuList.allowedForThisProcess().orElseThrow();
    CpuList first = before.split(1).get(0);
    taskset(pid, first);
    try {
      for (List<String> args : List.of(
          List.of("study", "versions", "--pg", "14,17", "--design", "duet", "--out", dir.resolve("v").toString()),
          List.of("study", "ab", "--a-pg", "14", "--b-pg", "17", "--out", dir.resolve("ab").toString()),
          List.of("quickstart", "--design", "duet", "--out", dir.resolve("q").toString()),
          List.of("calibrate", "--out", dir.resolve("c").toString()))) {
        Object command = args.get(0).equals("study") ? new StudyCommand()
            : args.get(0).equals("calibrate") ? new CalibrateCommand()
            : new dev.benchlake.app.quickstart.QuickstartCommand();
        CommandRun run = CommandRun.of(Cli.commandLine(command), args.subList(1, args.size()).toArray(String[]::new));
        assertThat(run.exitCode()).as(args.toString()).isEqualTo(ExitCode.BAD_INPUT);
        String design = args.get(0).equals("calibrate") ? "--designs" : "--design";
        assertThat(run.stderr().strip()).as(args.toString()).endsWith(
            design + " duet runs both sides at once, each on CPUs of its own, and this machine has 1 CPU (" + first
                + "): use " + design + " interleaved").doesNotContain("\n");
      }
      assertThat(dir).isEmptyDirectory();
    } finally {
      taskset(pid, before);
    }
  }

  /** Sets the affinity of the thread {@code tid} (a process's main thread: its pid). */
  private static void taskset(long tid, CpuList cpus) throws Exception {
    Process p = new ProcessBuilder("taskset", "-p", "-c", cpus.toString(), Long.toString(tid))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("taskset -p -c %s %d", cpus, tid).isZero();
  }

}
