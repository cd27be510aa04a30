package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.format.LoadgenAndCsvIngestTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A long ingest is not silent when its output is piped: while the one pass parses, stderr gets a
 * progress line (bytes and lines done, the rate, the time left) every interval (5 s; 0.5 s here,
 * so that a small file in many chunks shows it), and stdout stays the run ids alone.
 */
@org.junit.jupiter.api.Tag("integration")
class IngestProgressTest extends IngestTestSupport {
  @Test
  void aPipedIngestPrintsProgressOnStderrAndOnlyRunIdsOnStdout() throws Exception {
    Path run = LoadgenAndCsvIngestTest.loadgenRun(tmp.resolve("big-run"), "big-run", RunStatus.COMPLETE, 150_000);
    String before = System.getProperty("benchlake.ingest.progress.interval.s");
    System.setProperty("benchlake.ingest.progress.interval.s", "0.5");
    CommandRun ingest;
    try {
      ingest = IngestCommands.ingestInto(tmp.resolve("warehouse"), "--chunk-size", "131072", run.toString());
    } finally {
      if (before == null) {
        System.clearProperty("benchlake.ingest.progress.interval.s");
      } else {
        System.setProperty("benchlake.ingest.progress.interval.s", before);
      }
    }

    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    assertThat(ingest.stdout().lines().toList()).isEqualTo(List.of("big-run"));
    List<String> progress = ingest.stderr().lines().filter(l -> l.startsWith("parsing: ")).toList();
    // The whole input: the tasks and the manifest.
    long lines = java.nio.file.Files.readAllLines(run.resolve("tasks.csv")).size()
        + java.nio.file.Files.readAllLines(run.resolve("manifest.json")).size();
    String total = String.format(java.util.Locale.ROOT, "%,d", lines);
    assertThat(progress).as(ingest.stderr()).isNotEmpty().allMatch(l -> l.matches(
        "parsing: [\\d.]+ [kM]B of [\\d.]+ MB \\(\\d+ %\\), [\\d,]+ of " + total + " lines, [\\d.]+ [kM]B/s, "
            + "(about [\\d]+ (s|min [\\d]+ s) left|time left not known yet)"));
    assertThat(progress).as("some chunks done, with a time left").anyMatch(l -> l.contains(" left") && !l.contains("not known"));
    assertThat(ingest.stderr()).doesNotContain("\r");
  }
}
