package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.format.LoadgenAndCsvIngestTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every file under a folder given to ingest is ingested or listed with why it was not read: a
 * README, a chart and notes beside real results (loadgen run folders, a sysbench output, a mytools
 * tree given by its root with a README there) are listed as not results and the results ingested;
 * a hidden run folder and a hidden file are listed with their file counts, never skipped in silence.
 * A file named explicitly that is not a result is still an error.
 */
@org.junit.jupiter.api.Tag("integration")
class FolderAccountingTest extends IngestTestSupport {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};

  private static CommandRun ingest(Path warehouse, String... args) {
    return IngestCommands.ingestInto(warehouse, args);
  }

  @Test
  void aFolderOfResultsAndOtherFilesIngestsTheResultsAndListsEveryOtherFileWithWhy() throws Exception {
    Path results = tmp.resolve("results");
    Path readme = Files.writeString(Files.createDirectories(results).resolve("README.md"), "# Results of March\n",
        StandardCharsets.UTF_8);
    Path chart = Files.write(results.resolve("chart.png"), PNG);
    Path notes = Files.writeString(results.resolve("notes.txt"), "Dear diary,\ntoday I ran a benchmark.\n",
        StandardCharsets.UTF_8);
    Path dsStore = Files.writeString(results.resolve(".DS_Store"), "Bud1", StandardCharsets.UTF_8);
    Path run = LoadgenAndCsvIngestTest.loadgenRun(results.resolve("loadgen/run-a"), "run-a", RunStatus.COMPLETE, 8);
    Path runNotes = Files.writeString(run.resolve("how-i-ran-it.txt"), "loadgen --clients 4\n", StandardCharsets.UTF_8);
    Path hidden = results.resolve("loadgen/.run-b");
    LoadgenAndCsvIngestTest.loadgenRun(hidden, "run-b", RunStatus.COMPLETE, 8);
    Path sysbench = Files.copy(fixture("oltp_point_select.txt"), Files.createDirectories(results.resolve("sysbench"))
        .resolve("oltp_point_select.txt"));
    // A mytools tree (one step of one result folder of a round), given by its root, with a README at the root.
    Path tree = tmp.resolve("mytools");
    Path folder = Files.createDirectories(tree.resolve("r1/x.pg1424_embedded.default.pk1"));
    try (Stream<Path> files = Files.list(fixture("mytools/r1/x.pg1424_embedded.default.pk1"))) {
      for (Path f : files.filter(f -> f.getFileName().toString().contains("update-index")
          || f.getFileName().toString().equals("conf.diff")).toList()) {
        Files.copy(f, folder.resolve(f.getFileName().toString()));
      }
    }
    Path treeReadme = Files.writeString(tree.resolve("README.md"), "cmp_pg.sh, two rounds\n", StandardCharsets.UTF_8);
    long otherMytoolsFiles;
    try (Stream<Path> files = Files.list(folder)) {
      List<String> names = files.map(p -> p.getFileName().toString()).toList();
      otherMytoolsFiles = names.stream().filter(n -> !n.startsWith("sb.o.") && !n.startsWith("sb.r.")).count();
    }

    CommandRun ingest = ingest(tmp.resolve("warehouse"), results.toString(), tree.toString());

    assertThat(ingest.exitCode()).as(ingest.stderr()).isEqualTo(ExitCode.OK);
    // One run each: the loadgen run, the sysbench output, the mytools result folder.
    assertThat(ingest.stdout().lines()).as("loadgen, sysbench, mytools").hasSize(1 + 1 + 1)
        .contains("run-a").doesNotContain("run-b");
    assertThat(ingest.stderr()).contains(
        readme + ": not a result (no known format: first line '# Results of March'), not read",
        chart + ": not a result (binary file (NUL byte at offset 8), not a text result file), not read",
        notes + ": not a result (no known format: first line 'Dear diary,'), not read",
        treeReadme + ": not a result (no known format: first line 'cmp_pg.sh, two rounds'), not read",
        runNotes + ": not a result (not part of a loadgen run: its results are manifest.json and tasks.csv), not read",
        hidden + ": hidden folder (2 files), not read: name it to ingest it",
        dsStore + ": hidden file, not read: name it to ingest it",
        sysbench + ": accepted ");
    long notRead = 3 + 1 + 1 + 2 + 1 + otherMytoolsFiles;
    assertThat(ingest.stderr()).contains(notRead + " files were not read (listed above)");
    assertThat(warehouse().runs().count()).isEqualTo(1 + 1 + 1);

    // The hidden folder named explicitly is read.
    CommandRun named = ingest(tmp.resolve("warehouse"), hidden.toString());
    assertThat(named.exitCode()).as(named.stderr()).isEqualTo(ExitCode.OK);
    assertThat(named.stdout().trim()).isEqualTo("run-b");
  }

  @Test
  void aFileNamedExplicitlyThatIsNotAResultIsAnErrorAndSoIsAFolderWithoutAnyResult() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("docs"));
    Path notes = Files.writeString(dir.resolve("notes.txt"), "Dear diary,\n", StandardCharsets.UTF_8);
    Path chart = Files.write(dir.resolve("chart.png"), PNG);

    CommandRun file = ingest(tmp.resolve("warehouse"), notes.toString());
    assertThat(file.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(file.stderr().strip()).startsWith("ingest: " + notes + ": cannot tell the format (first line 'Dear diary,'")
        .doesNotContain("\n");
    CommandRun png = ingest(tmp.resolve("warehouse"), chart.toString());
    assertThat(png.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(png.stderr().strip()).isEqualTo("ingest: " + chart + ": binary file (NUL byte at offset 8), not a text result file");

    CommandRun folder = ingest(tmp.resolve("warehouse"), dir.toString());
    assertThat(folder.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(folder.stderr().strip()).startsWith("ingest: [" + dir + "]: no results in there: 2 files not read (")
        .doesNotContain("\n");
    assertThat(tmp.resolve("warehouse")).doesNotExist();
  }
}
