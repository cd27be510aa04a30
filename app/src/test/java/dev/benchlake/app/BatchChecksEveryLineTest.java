package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code benchlake batch} with the real commands: an ingest that would write a warehouse, then a
 * compare with a typo. The typo is reported with its line number before the ingest runs: exit 2,
 * one line, no warehouse, no Spark started.
 */
class BatchChecksEveryLineTest {
  @TempDir
  Path tmp;

  @Test
  void aTypoOnLineTwoStopsTheBatchBeforeLineOneWritesAnything() throws Exception {
    Path result = tmp.resolve("sysbench.txt");
    try (InputStream in = BatchChecksEveryLineTest.class.getResourceAsStream(
        "/dev/benchlake/ingest/fixtures/oltp_point_select.txt")) {
      assertThat(in).as("ingest's sysbench fixture").isNotNull();
      Files.copy(in, result);
    }
    Path warehouse = tmp.resolve("wh");
    Path commands = Files.writeString(tmp.resolve("commands.txt"),
        "ingest --warehouse " + warehouse + " --label os=linux " + result + "\n"
            + "compare --warehouse " + warehouse + " --baselin os=linux --candidate os=windows --out " + tmp.resolve("r") + "\n");

    CommandRun run = CommandRun.of(Benchlake.commandLine(), "batch", commands.toString());

    run.assertBadInput(commands + ": line 2: Missing required option: '--baseline=SELECTOR'");
    assertThat(run.stderr().strip()).doesNotContain("\n");
    assertThat(run.stdout()).isEmpty();
    assertThat(warehouse).doesNotExist();
    assertThat(tmp.resolve("r")).doesNotExist();
  }
  /**
   * Values that only the command itself checks, on line 2 of a batch whose line 1 would write a
   * warehouse: each is one line naming line 2 and exit 2, and line 1 never runs. The check used to be
   * picocli's parse alone, which knows an option's type but not what a value means: `--margin abc`,
   * an unknown `--metric`, a missing input and a refused URL ran line 1 first. Each command's
   * `validate` is its one place for these checks, and the batch runs them all first.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
      "compare --warehouse {wh} --baseline os=linux --candidate os=windows --margin abc --out {tmp}/r"
          + " | --margin 'abc' is not a fraction or a percentage",
      "trend --warehouse {wh} --by os --metric qpx --out {tmp}/t | --metric 'qpx' is not one of qps",
      "ingest --warehouse {wh} {tmp}/missing.txt | {tmp}/missing.txt: no such file or directory",
      "ingest --warehouse {wh} --mapping {tmp}/nomapping.yaml {result} | {tmp}/nomapping.yaml: mapping file not found",
      "ingest --warehouse s3a://AKIAEXAMPLEKEY:SECRETKEY@bucket/wh {result} | a location must not carry credentials",
      "loadgen --jdbc-url jdbc:postgresql://bench:SECRETKEY@db/bench --workload point-select --tasks 5 --out {tmp}/lg"
          + " | --jdbc-url must not carry a password",
      "runs --warehouse {wh} --where nokey | 'nokey' is not key=value",
      "export --warehouse {wh} --table nosuch --out {tmp}/x.csv | --table: no table 'nosuch'",
      "history --warehouse {wh} --fail-on changepoint --out {tmp}/h | --fail-on 'changepoint' is not change-point",
      "loadgen --workload point-select --duration 999999999h --out {tmp}/lg | '999999999h' is longer than 720h",
      "quickstart --design interleaved --pg-versions 14,18 --out {tmp}/qs | no embedded PostgreSQL 18",
  })
  void aValueOnlyItsCommandChecksStopsTheBatchBeforeLineOneRuns(String line2, String message) throws Exception {
    Path result = tmp.resolve("sysbench.txt");
    try (InputStream in = BatchChecksEveryLineTest.class.getResourceAsStream(
        "/dev/benchlake/ingest/fixtures/oltp_point_select.txt")) {
      Files.copy(in, result);
    }
    Path warehouse = tmp.resolve("wh");
    String second = line2.strip().replace("{wh}", warehouse.toString()).replace("{tmp}", tmp.toString())
        .replace("{result}", result.toString());
    Path commands = Files.writeString(tmp.resolve("commands.txt"),
        "ingest --warehouse " + warehouse + " --label os=linux " + result + "\n" + second + "\n");

    CommandRun run = CommandRun.of(Benchlake.commandLine(), "batch", commands.toString());

    run.assertBadInput(commands + ": line 2: ");
    assertThat(run.stderr().strip()).doesNotContain("\n").contains(message.strip().replace("{tmp}", tmp.toString()))
        .doesNotContain("SECRETKEY");
    assertThat(run.stdout()).isEmpty();
    assertThat(warehouse).as("line 1 did not run").doesNotExist();
  }

  /**
   * An input that an earlier line writes need not be there when the batch is checked: line 2 ingests
   * the run line 1's loadgen will write, line 3 the folder that will hold it; the bad value on line 4
   * is the one reported, and nothing runs.
   */
  @Test
  void anInputAnEarlierLineWritesIsNotMissing() throws Exception {
    Path warehouse = tmp.resolve("wh");
    Path run = tmp.resolve("runs").resolve("a");
    Path commands = Files.writeString(tmp.resolve("commands.txt"),
        "loadgen --workload point-select --tasks 5 --out " + run + "\n"
            + "ingest --warehouse " + warehouse + " " + run + "\n"
            + "ingest --warehouse " + warehouse + " " + tmp.resolve("runs") + "\n"
            + "compare --warehouse " + warehouse + " --baseline os=linux --candidate os=windows --alpha 2 --out "
            + tmp.resolve("r") + "\n");

    CommandRun batch = CommandRun.of(Benchlake.commandLine(), "batch", commands.toString());

    batch.assertBadInput(commands + ": line 4: --alpha 2 is not in (0, 0.5)");
    assertThat(batch.stderr().strip()).as("the run's folder, and the folder that will hold it, are not missing")
        .doesNotContain("\n");
    assertThat(tmp.resolve("runs")).doesNotExist();
    assertThat(warehouse).doesNotExist();
  }

  /**
   * Every bad line is told in one go, each a line of its own naming its number, then a count: a user
   * fixes them all before the next try, instead of one per try. Nothing runs.
   */
  @Test
  void everyBadLineIsToldBeforeNothingRuns() throws Exception {
    Path warehouse = tmp.resolve("wh");
    Path commands = Files.writeString(tmp.resolve("commands.txt"),
        "loadgen --workload point-select --tasks 5 --duration 999999999h --out " + tmp.resolve("lg") + "\n"
            + "runs --warehouse " + warehouse + "\n"
            + "compare --warehouse " + warehouse + " --baseline os=linux --candidate os=windows --margin abc --out "
            + tmp.resolve("r") + "\n"
            + "runs --warehouse " + warehouse + " --where nokey\n");

    CommandRun batch = CommandRun.of(Benchlake.commandLine(), "batch", commands.toString());

    batch.assertBadInput(commands + ": 3 lines are bad input (each above; nothing was run");
    assertThat(batch.stderr().lines().toList()).hasSize(4)
        .anySatisfy(l -> assertThat(l).startsWith("benchlake batch: " + commands + ": line 1: ").contains("720h"))
        .anySatisfy(l -> assertThat(l).startsWith("benchlake batch: " + commands + ": line 3: ").contains("--margin"))
        .anySatisfy(l -> assertThat(l).startsWith("benchlake batch: " + commands + ": line 4: ").contains("nokey"));
    assertThat(batch.stdout()).isEmpty();
    assertThat(tmp.resolve("lg")).doesNotExist();
    assertThat(tmp.resolve("r")).doesNotExist();
  }
}
