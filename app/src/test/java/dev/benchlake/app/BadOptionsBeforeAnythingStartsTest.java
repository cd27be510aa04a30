package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad duration, count, major or folder of the commands that start servers (loadgen, quickstart,
 * study ab, study versions) is one line and exit 2 before anything starts: no server (no child
 * process), no folder, nothing written, within seconds. Each was caught only after minutes
 * (`quickstart --pg-versions 14,18` ran an a/a round; `--step-duration 0s` failed after 23 s;
 * `study ab --pg-dir FILE` after 11 s) or not at all (`--duration 999999999h` wrapped around a long of
 * nanoseconds and ran); each left a folder. In process, no server: the checks are the options'
 * converters and each command's {@code validate}.
 */
class BadOptionsBeforeAnythingStartsTest {
  @TempDir
  static Path tmp;

  /** {@code {out}}: a new folder under the test's; {@code {file}}: a file there. */
  static Stream<Arguments> badOptions() {
    String qs = "quickstart --design interleaved --out {out}";
    String ab = "study ab --design sequential --rounds 2 --steps point-select --out {out}";
    String versions = "study versions --design sequential --repeats 1 --out {out}";
    String lg = "loadgen --workload point-select --out {out}";
    return Stream.of(
        // quickstart: a major without binaries, a zero or absurd duration, counts out of range
        Arguments.of(qs + " --pg-versions 14,18", "no embedded PostgreSQL 18 for this platform"),
        Arguments.of(qs + " --pg-versions 14", "give at least two different PostgreSQL majors"),
        Arguments.of(qs + " --step-duration 0s", "--step-duration': '0s' is not above 0"),
        Arguments.of(qs + " --step-duration 999999999h", "--step-duration': '999999999h' is longer than 720h"),
        Arguments.of(qs + " --warmup 999999999h", "--warmup': '999999999h' is longer than 720h"),
        Arguments.of(qs + " --step-duration PT-5S", "--step-duration': 'PT-5S' is negative"),
        Arguments.of(qs + " --rounds 1", "--rounds must be at least 2"),
        Arguments.of(qs + " --runs 2147483647", "--runs': '2147483647' is not from 1 to 1000"),
        Arguments.of(qs + " --aa-rounds 0", "--aa-rounds': '0' is not from 1 to 1000"),
        Arguments.of("quickstart --out {out} --max-rounds 99999", "--max-rounds': '99999' is not from 1 to 1000"),
        // study ab
        Arguments.of(ab + " --pg-dir {file}", "--pg-dir {file} is a file, not a directory"),
        Arguments.of(ab + " --a-pg 18", "no embedded PostgreSQL 18 for this platform"),
        Arguments.of(ab + " --duration 0s", "--duration': '0s' is not above 0"),
        Arguments.of(ab + " --duration 999999999h", "--duration': '999999999h' is longer than 720h"),
        Arguments.of(ab + " --read-duration 0ms --write-duration 1s", "--read-duration': '0ms' is not above 0"),
        Arguments.of(ab + " --warmup 99999h", "--warmup': '99999h' is longer than 720h"),
        Arguments.of(ab + " --rounds 5000", "--rounds': '5000' is not from 1 to 1000"),
        Arguments.of(ab + " --clients 0", "--clients must be 1..10000"),
        Arguments.of(ab + " --tables 0", "--tables must be 1..1000"),
        // study versions
        Arguments.of(versions + " --pg 14,18", "--pg 18: no embedded PostgreSQL 18"),
        Arguments.of(versions + " --pg 17", "--pg: give at least two different PostgreSQL majors"),
        Arguments.of(versions + " --pg 17,17", "--pg: give at least two different PostgreSQL majors"),
        Arguments.of(versions + " --pg-dir {file}", "--pg-dir {file} is a file, not a directory"),
        Arguments.of(versions + " --read-duration 0s", "--read-duration': '0s' is not above 0"),
        Arguments.of(versions + " --write-duration 999999999h", "--write-duration': '999999999h' is longer than 720h"),
        Arguments.of(versions + " --repeats 0", "--repeats': '0' is not from 1 to 1000"),
        // loadgen, a run and --serve
        Arguments.of(lg + " --duration 999999999h", "--duration': '999999999h' is longer than 720h"),
        Arguments.of(lg + " --duration 0s", "--duration': '0s' is not above 0"),
        Arguments.of(lg + " --tasks 5 --connect-timeout 0s", "--connect-timeout': '0s' is not above 0"),
        Arguments.of(lg + " --tasks 5 --max-outage 999999999h", "--max-outage': '999999999h' is longer than 720h"),
        Arguments.of(lg + " --tasks 5 --warmup 1e3s", "--warmup': '1e3s' is not a duration"),
        Arguments.of(lg + " --tasks 5 --pg-dir {file}", "--pg-dir {file} is a file, not a directory"),
        Arguments.of(lg + " --tasks 5 --pg-version 18", "no embedded PostgreSQL 18 for this platform"),
        Arguments.of("loadgen --serve --pg-version 18", "no embedded PostgreSQL 18 for this platform"),
        Arguments.of("loadgen --serve --pg-dir {file}", "--pg-dir {file} is a file, not a directory"),
        Arguments.of("loadgen --serve --pg-setting port=5", "--pg-setting: port is managed by loadgen"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badOptions")
  void aBadOptionIsOneLineAndExitTwoBeforeAnythingStarts(String command, String message) throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "not a folder");
    Path out = tmp.resolve("out");
    List<String> args = new ArrayList<>();
    for (String word : command.split(" ")) {
      args.add(word.replace("{out}", out.toString()).replace("{file}", file.toString()));
    }
    Map<Path, String> before = FileTrees.snapshot(tmp);

    CommandRun run = assertTimeoutPreemptively(Duration.ofSeconds(30),
        () -> CommandRun.of(RootCommand.forArgs(Benchlake.commands(), args.toArray(String[]::new)),
            args.toArray(String[]::new)), "checked before anything starts");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
    assertThat(run.stderr().lines().toList()).as("one line").singleElement().asString()
        .contains(message.replace("{file}", file.toString())).doesNotContain("\tat ");
    assertThat(FileTrees.snapshot(tmp)).as("nothing written, no folder made").isEqualTo(before);
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(p -> p.info().command()
        .orElse("?")).toList()).as("no server started").isEmpty();
  }
}
