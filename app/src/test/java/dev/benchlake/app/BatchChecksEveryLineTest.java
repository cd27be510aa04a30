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
}
