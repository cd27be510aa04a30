package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.ingest.IngestTestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code benchlake ingest} end to end in-process: output, exit codes, and bad input leaving the warehouse unchanged. */
@org.junit.jupiter.api.Tag("integration")
class IngestCommandTest extends IngestTestSupport {
  /** One warehouse with one run, shared by the bad-input tests: none of them may change it. */
  @TempDir
  static Path seeded;

  private static Path warehouseDir;
  /** Every file of the seeded warehouse (but the lock files) with its size. */
  private static List<String> seedSnapshot;

  @BeforeAll
  static void seedWarehouse() {
    warehouseDir = seeded.resolve("warehouse");
    CommandRun seed = ingestInto(warehouseDir, fixture("pgbench15-progress.txt").toString());
    assertThat(seed.exitCode()).as(seed.stderr()).isZero();
    seedSnapshot = snapshot();
  }

  private CommandRun ingest(String... args) {
    return ingestInto(warehouseDir, args);
  }

  private static CommandRun ingestInto(Path warehouse, String... args) {
    return IngestCommands.ingestInto(warehouse, args);
  }

  @Test
  void printsRunIdsOnStdoutAndAccountingOnStderr() throws IOException {
    Path file = fixture("oltp_point_select.txt");
    Path own = tmp.resolve("own-warehouse");
    CommandRun run = ingestInto(own, "--label", "os=linux", file.toString());
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout().trim()).matches("sysbench-[0-9a-f]{16}");
    assertThat(run.stderr()).contains(file + ": sysbench (sysbench output")
        .contains(file + ": accepted " + Files.readAllLines(file).size() + ", rejected 0");

    CommandRun again = ingestInto(own, file.toString());
    assertThat(again.exitCode()).isZero();
    assertThat(again.stdout()).isEmpty();
    assertThat(again.stderr()).contains("already ingested as run " + run.stdout().trim() + ", nothing added")
        .contains("already ingested, nothing added");
  }

  @Test
  void unknownFormat() throws IOException {
    Path notes = Files.writeString(tmp.resolve("notes.txt"), "Dear diary,\ntoday I ran a benchmark.\n", StandardCharsets.UTF_8);
    assertBadInput(ingest(notes.toString()), notes + ": cannot tell the format (first line 'Dear diary,'");
  }

  @Test
  void emptyFile() throws IOException {
    Path empty = Files.writeString(tmp.resolve("empty.log"), "", StandardCharsets.UTF_8);
    assertBadInput(ingest(empty.toString()), empty + ": empty file (0 bytes)");
    assertBadInput(ingest("--format", "pgbench-log", empty.toString()), empty + ": empty file (0 bytes)");
  }

  @Test
  void binaryFile() throws IOException {
    Path binary = Files.write(tmp.resolve("data.bin"), new byte[] {'P', 'K', 3, 4, 0, 0, 1, 2});
    assertBadInput(ingest(binary.toString()), binary + ": binary file (NUL byte at offset 4)");
  }

  /** A sysbench file forced through the pgbench log parser: every line rejected, nothing written. */
  @Test
  void misDetectedFormatIsAllRejects() {
    Path sysbench = fixture("oltp_point_select.txt");
    CommandRun run = ingest("--format", "pgbench-log", sysbench.toString());
    assertBadInput(run, sysbench + ": every data line was rejected (28 of 37 lines)");
    assertThat(run.stderr()).contains("so it is not usable as pgbench-log; first: line 1 'sysbench 1.0.20");
  }

  @Test
  void missingMappingColumn() throws IOException {
    Path csv = Files.writeString(tmp.resolve("results.csv"), "query,ms\nq1,1.5\n", StandardCharsets.UTF_8);
    Path mapping = Files.writeString(tmp.resolve("mapping.yaml"), "columns:\n  step: query\n  latency: latency_ms\n",
        StandardCharsets.UTF_8);
    assertBadInput(ingest("--mapping", mapping.toString(), csv.toString()),
        mapping + ": column latency 'latency_ms' is not in the header of " + csv + " (its columns: query, ms)");
  }

  @Test
  void noSuchFileAndUnknownFormatName() {
    assertBadInput(ingest(tmp.resolve("nope.log").toString()), tmp.resolve("nope.log") + ": no such file or directory");
    assertBadInput(ingest("--format", "mysqlslap", fixture("oltp_point_select.txt").toString()),
        "unknown format 'mysqlslap'");
  }

  @Test
  void labelsFromPathsWorkForAnyFormat() throws IOException {
    Path folder = Files.createDirectories(tmp.resolve("host-db7/pg15"));
    Path file = Files.copy(fixture("pgbench15-progress.txt"), folder.resolve("run.txt"));
    Path own = tmp.resolve("labelled-warehouse");
    CommandRun run = ingestInto(own, "--label-from-path", "/host-(?<host>[a-z0-9]+)/pg(?<db_major>\\d+)/",
        "--label", "os=linux", file.toString());
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<org.apache.spark.sql.Row> runs = dev.benchlake.warehouse.Warehouse.at(spark, own.toString()).runs()
        .select("host", "db_major", "os").collectAsList();
    assertThat(runs).singleElement().hasToString("[db7,15,linux]");
  }

  @Test
  void labelsFromPathsRefuseWhatTheyCannotDecide() {
    String file = fixture("pgbench15-rate-limit.txt").toString();
    assertBadInput(ingest("--label-from-path", "x\\.pg(?<db_major>\\d\\d)", file),
        file + ": --label-from-path 'x\\.pg(?<db_major>\\d\\d)' does not match this path");
    assertBadInput(ingest("--label-from-path", "(?<db_major>\\d\\d)", "--label", "db_major=16", file),
        "label db_major is given by --label db_major=16 and by --label-from-path: give it one way");
    assertBadInput(ingest("--label-from-path", "pgbench(\\d\\d)", file), "has no named group");
    // Optional: a path it does not match just gets none of its labels.
    Path own = tmp.resolve("optional-warehouse");
    CommandRun optional = ingestInto(own, "--label-from-path", "x\\.pg(?<db_major>\\d\\d)", "--label-from-path-optional",
        file);
    assertThat(optional.exitCode()).as(optional.stderr()).isZero();
  }

  /** Exit 2, one line on stderr naming the cause, and not one byte of the warehouse changed. */
  private void assertBadInput(CommandRun run, String expected) {
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().lines().filter(l -> l.startsWith("ingest: ")).toList()).singleElement()
        .asString().contains(expected);
    assertThat(run.stdout()).isEmpty();
    assertThat(snapshot()).isEqualTo(seedSnapshot);
  }

  private static List<String> snapshot() {
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(warehouseDir)) {
      walk.filter(Files::isRegularFile).filter(p -> !p.toString().contains("_locks"))
          .forEach(p -> files.add(warehouseDir.relativize(p) + ":" + p.toFile().length()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    files.sort(null);
    return files;
  }
}
