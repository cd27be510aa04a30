package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad arguments: exit 2, one clear line on stderr, no run directory left behind. */
class BadInputTest {
  @TempDir
  Path tmp;

  static CommandRun run(String... args) {
    return CommandRun.of(new LoadgenCommand(), args);
  }

  private CommandRun runWithOut(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--out", tmp.resolve("run").toString()));
    return run(all.toArray(new String[0]));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--workload nope --tasks 10                     | unknown workload 'nope'; known: select-update, sysbench",
      "--workload point-select --rate 0 --tasks 10    | --rate must be a number of tasks per second above 0",
      "--workload point-select --rate -5 --tasks 10   | --rate must be a number of tasks per second above 0",
      "--workload point-select --tasks 0              | --tasks must be at least 1",
      "--workload point-select                        | give --tasks N or --duration D",
      "--workload point-select --tasks 5 --duration 1s | give --tasks or --duration, not both",
      "--workload sysbench --tasks 5                  | --workload sysbench needs --steps",
      "--workload sysbench --steps point-select,nope --tasks 5 | unknown step 'nope'",
      "--workload sysbench --steps scan_range=0 --tasks 5 | step 'scan_range=0': the range must be at least 1",
      "--workload sysbench --steps mytools --read-duration 1s | or both --read-duration and --write-duration",
      "--workload select-update --read-duration 1s --write-duration 1s | --read-duration and --write-duration go with --workload sysbench",
      "--workload sysbench --steps mytools --tasks 5 --write-duration 1s | give --tasks or --read-duration/--write-duration, not both",
      "--workload sysbench --steps mytools --read-duration 0s --write-duration 1s | Invalid value for option '--read-duration': '0s' is not above 0",
      "--workload sysbench --steps mytools --tables 2 --tasks 5 --steps random-points | random-points and random-ranges use sbtest1 only",
      "--workload select-update --burst 10 --tasks 5  | --burst needs --pool P",
      "--workload select-update --pool 2 --tasks 5    | --pool and --pool-timeout go with --burst",
      "--workload select-update --burst 10 --pool 2 --pool-timeout 10ms | --pool-timeout must be at least 250ms",
      "--workload select-update --tasks 5 --pg-version 10 | no embedded PostgreSQL 10 for this platform; available: 11, 12, 13, 14, 15, 16, 17",
      "--workload select-update --tasks 5 --pg-setting fsync=maybe | --pg-setting fsync=maybe: not a valid value for fsync",
      "--workload select-update --tasks 5 --pg-setting port=5 | --pg-setting: port is managed by loadgen",
      "--workload select-update --tasks 5 --label 9x=1 | --label: label key '9x' must start with a letter",
      "--workload select-update --tasks 5 --scale 0   | --scale must be above 0",
      "--workload select-update --tasks 5 --think-time 5ms..1ms | --think-time MIN..MAX needs 0 <= MIN <= MAX",
      "--workload select-update --tasks 5 --jdbc-url jdbc:mysql://x/y | --jdbc-url must start with jdbc:postgresql:",
      "--workload point-select --tasks 5 --handicap-stretch 0 --label handicap_stretch=0.1 | --label handicap_stretch marks runs made with --handicap-stretch",
      "--workload point-select --tasks 5 --handicap-stretch -0.05 | --handicap-stretch must be above 0 and at most 1",
      "--workload point-select --tasks 5 --handicap-stretch 1.5 | --handicap-stretch must be above 0 and at most 1",
      "--workload point-select --tasks 5 --handicap-stretch NaN | --handicap-stretch must be above 0 and at most 1",
      "--workload select-update --burst 10 --pool 2 --tasks 5 --handicap-stretch 0.1 | --handicap-stretch goes with a closed loop (--clients)",
      "--workload point-select --rate 10 --tasks 5 --handicap-stretch 0.1 | --handicap-stretch goes with a closed loop (--clients)",
  })
  void badArgumentsExitWith2AndOneLine(String args, String message) {
    CommandRun o = runWithOut(args.trim().split("\\s+"));
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr().lines().toList()).hasSize(1).first().asString()
        .startsWith("loadgen: ").contains(message);
    assertThat(tmp.resolve("run")).doesNotExist();
  }

  /** Options that do not go together are picocli's argument groups: its message and the --help hint. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--workload select-update --burst 10 --pool 2 --rate 5 | --rate=TASKS_PER_S, --burst=N are mutually exclusive",
      "--workload select-update --tasks 5 --user bob  | Missing required argument(s): --jdbc-url=URL",
      "--workload select-update --tasks 5 --jdbc-url jdbc:postgresql://x/y --pg-version 16 | are mutually exclusive",
      "--workload select-update --tasks 5 --pg-dir /tmp --jdbc-url jdbc:postgresql://x/y | are mutually exclusive",
  })
  void optionsThatDoNotGoTogetherExitWith2(String args, String message) {
    CommandRun o = runWithOut(args.trim().split("\\s+"));
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr().lines().toList()).containsExactly(o.stderr().lines().findFirst().orElseThrow(),
        "Try 'loadgen --help'.");
    assertThat(o.stderr().lines().findFirst().orElseThrow()).startsWith("loadgen: ").contains(message);
    assertThat(tmp.resolve("run")).doesNotExist();
  }

  @Test
  void unreachableServerIsBadInputBeforeAnythingIsWritten() {
    CommandRun o = runWithOut("--jdbc-url", "jdbc:postgresql://127.0.0.1:1/postgres", "--user", "x",
        "--workload", "point-select", "--tasks", "5", "--connect-timeout", "2s");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr().lines().toList()).hasSize(1).first().asString()
        .contains("cannot connect to jdbc:postgresql://127.0.0.1:1/postgres as x").contains("SQLSTATE 08001");
    assertThat(tmp.resolve("run")).doesNotExist();
  }

  @Test
  void aPasswordInTheUrlIsRefusedWithoutEchoingIt() {
    CommandRun o = runWithOut("--jdbc-url", "jdbc:postgresql://127.0.0.1:1/postgres?password=Hunter2Hunter2",
        "--workload", "point-select", "--tasks", "5");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr()).contains("must not carry a password").doesNotContain("Hunter2");
  }

  @Test
  void aNonEmptyOutputDirectoryIsNeverOverwritten() throws Exception {
    Path run = tmp.resolve("run");
    Files.createDirectories(run);
    Files.writeString(run.resolve("manifest.json"), "{}", StandardCharsets.UTF_8);
    CommandRun o = runWithOut("--workload", "point-select", "--tasks", "5");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr()).contains("is not empty");
    assertThat(Files.readString(run.resolve("manifest.json"), StandardCharsets.UTF_8)).isEqualTo("{}");
  }

  @Test
  void anOutputDirectoryThatCannotBeCreatedIsRefusedFirst() throws Exception {
    Path file = tmp.resolve("a-file");
    Files.writeString(file, "x", StandardCharsets.UTF_8);
    CommandRun o = run("--workload", "point-select", "--tasks", "5", "--out", file.resolve("run").toString());
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr()).contains("cannot create it (" + file + " is not a writable directory)");
  }

  @Test
  void aScriptErrorNamesTheFileAndLine() throws Exception {
    Path script = tmp.resolve("tx.sql");
    Files.writeString(script, "\\set a random(1, 10)\nselect :a;\nselect :b;\n", StandardCharsets.UTF_8);
    CommandRun o = runWithOut("--script", script.toString(), "--tasks", "5");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr()).contains(script + ":3: variable :b is not defined");
  }

  @Test
  void aSettingTheServerRefusesIsBadInputWithTheServersReason() {
    CommandRun o = runWithOut("--workload", "point-select", "--tasks", "5", "--pg-setting", "no_such_setting=1");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr().lines().toList()).hasSize(1).first().asString()
        .contains("--pg-setting no_such_setting=1: ").contains("unrecognized configuration parameter");
    assertThat(tmp.resolve("run")).doesNotExist();
  }

  @Test
  void aValueTheServerRefusesIsBadInputToo() {
    CommandRun o = runWithOut("--workload", "point-select", "--tasks", "5", "--pg-setting", "work_mem=lots");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr().lines().toList()).hasSize(1).first().asString()
        .contains("--pg-setting work_mem=lots: ").contains("invalid value for parameter");
  }

  @Test
  void unknownOptionsAreUsageErrors() {
    CommandRun o = runWithOut("--workload", "point-select", "--tasks", "5", "--bogus");
    assertThat(o.exitCode()).isEqualTo(2);
    assertThat(o.stderr()).contains("Unknown option: '--bogus'");
  }
}
