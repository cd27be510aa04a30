package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.compat.CompatFixtures;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.spark.NoSparkSession;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code benchlake verify} (issue 25): exit 0 on a sound warehouse of every release, and on a
 * damaged one every problem on a line of its own naming its file, exit 2 and one line on stderr;
 * either way nothing written and no Spark session. (Each damage alone, through every command, and
 * a read-only warehouse: {@link DamagedWarehouseTest}; checkpoints: warehouse's
 * {@code WarehouseVerifyCheckpointTest}.)
 */
class VerifyCommandTest {
  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"0.1.0", "0.2.0", "0.3.0"})
  void theWarehouseOfEveryReleaseIsSound(String release) throws Exception {
    Path wh = CompatFixtures.copy(release, "warehouse", tmp.resolve("wh"));
    Map<Path, String> before = FileTrees.snapshot(wh);
    CommandRun run = verify(wh);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout()).contains("TABLE", "runs ", "tasks ", "step_metrics ", "rejects ")
        .contains("sound: format " + Map.of("0.1.0", 1, "0.2.0", 2, "0.3.0", WarehouseFormat.CURRENT).get(release));
    assertThat(FileTrees.snapshot(wh)).isEqualTo(before);
  }

  @Test
  void everyProblemIsOneLineNamingItsFile() throws Exception {
    Path wh = CompatFixtures.copy("0.3.0", "warehouse", tmp.resolve("wh"));
    // The format file: JSON, but not a format.
    Path format = Files.writeString(wh.resolve("_benchlake/format.json"), "{\"version\": 4}\n", StandardCharsets.UTF_8);
    // A commit cut mid-line, without the Hadoop checksum file that would have said so first.
    Path cut = wh.resolve("tasks/_delta_log/00000000000000000001.json");
    Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(cut), 500));
    Files.delete(wh.resolve("tasks/_delta_log/.00000000000000000001.json.crc"));
    // A commit that lost its add action at a line end: it parses; Delta's checksum of the version disagrees.
    Path lostAdd = wh.resolve("runs/_delta_log/00000000000000000005.json");
    List<String> actions = Files.readAllLines(lostAdd, StandardCharsets.UTF_8);
    String add = actions.stream().filter(l -> l.startsWith("{\"add\"")).findFirst().orElseThrow();
    long lostBytes = Json.mapper().readTree(add).get("add").get("size").asLong();
    Files.write(lostAdd, actions.stream().filter(l -> !l.equals(add)).toList(), StandardCharsets.UTF_8);
    Files.delete(wh.resolve("runs/_delta_log/.00000000000000000005.json.crc"));
    // A commit deleted: a gap in the versions.
    Files.delete(wh.resolve("ingest_files/_delta_log/00000000000000000002.json"));
    // A data file cut short, and one deleted.
    Path shorter = dataFile(wh, "step_metrics");
    Files.write(shorter, java.util.Arrays.copyOf(Files.readAllBytes(shorter), 100));
    Path deleted = dataFile(wh, "rejects");
    Files.delete(deleted);
    Map<Path, String> before = FileTrees.snapshot(wh);

    CommandRun run = verify(wh);

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().lines().toList()).singleElement().asString()
        .isEqualTo("benchlake verify: the warehouse at " + wh + " is damaged: 6 problems (on stdout); restore those files "
            + "from a backup (verify changed nothing)");
    Path fixture = CompatFixtures.COMPAT.resolve("0.3.0/warehouse");
    assertThat(run.stdout().lines().toList()).as("the format file's, then by table (rejects, ingest_files, step_metrics, "
        + "tasks, runs): its log's files, its data files, Delta's checksum").containsExactly(
        format + ": not a benchlake format file (no integer format_version; it holds one line such as {\"format_version\": "
            + WarehouseFormat.CURRENT + "})",
        deleted + ": missing, yet the Delta log of rejects names it (" + Files.size(fixture.resolve(wh.relativize(deleted)))
            + " bytes) as part of the table: deleted or moved away",
        wh.resolve("ingest_files/_delta_log/00000000000000000002.json") + ": missing: the log has version 5, and Delta "
            + "cannot build the table past a gap",
        shorter + ": 100 bytes where the Delta log of step_metrics recorded " + Files.size(fixture.resolve(wh.relativize(shorter)))
            + ": cut short or replaced",
        cut + ": line 2 is not whole JSON (Unexpected end-of-input: was expecting closing quote for a string value): the "
            + "file was cut short or overwritten",
        wh.resolve("runs/_delta_log/00000000000000000005.crc") + ": Delta recorded 6 data files of 76904 bytes for version 5, "
            + "but the log names 5 of " + (76904 - lostBytes) + ": a commit lost some of its actions, or this checksum file "
            + "is wrong");
    assertThat(FileTrees.snapshot(wh)).as("verify wrote nothing").isEqualTo(before);
  }

  /**
   * What a killed ingest leaves is no damage (issue 44's rule for data files no log names, which must
   * not trip on it): uncommitted data files in a table that has a log, and a first write of a table
   * killed before its commit (its data files beside the log folder Delta makes before them, with no
   * commit in it). The same data files with no log folder at all are a table whose log was lost.
   */
  @Test
  void aKilledIngestsUncommittedFilesAreNoDamageButDataFilesWithoutALogAre() throws Exception {
    Path wh = CompatFixtures.copy("0.1.0", "warehouse", tmp.resolve("wh"));
    Path data = dataFile(wh, "tasks");
    Files.copy(data, data.resolveSibling("part-00000-0a0b0c0d-0000-4000-8000-000000000001-c000.snappy.parquet"));
    Path newTable = Files.createDirectories(wh.resolve("ingest_files/_delta_log/_staged_commits")).getParent().getParent();
    Files.copy(data, newTable.resolve("part-00000-0a0b0c0d-0000-4000-8000-000000000002-c000.snappy.parquet"));
    CommandRun sound = verify(wh);
    assertThat(sound.exitCode()).as(sound.stdout() + sound.stderr()).isZero();
    assertThat(sound.stdout()).contains("sound: format 1");

    FileTrees.delete(newTable.resolve("_delta_log"));
    CommandRun lost = verify(wh);
    assertThat(lost.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(lost.stdout().lines().toList()).singleElement().asString().isEqualTo(newTable.resolve("_delta_log")
        + ": missing, yet ingest_files holds 1 data file of " + Files.size(data) + " bytes: the table's Delta log was "
        + "deleted or moved away (without it Delta reads no row of the table, and an ingest would start the table "
        + "afresh, orphaning them all)");
  }

  @Test
  void noWarehouseIsOneLine() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    CommandRun run = verify(empty);
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().lines().toList()).singleElement().asString()
        .isEqualTo("benchlake verify: no warehouse at " + empty + " (no format file and no table)");
    assertThat(empty).isEmptyDirectory();
  }

  private static CommandRun verify(Path wh) throws Exception {
    return NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), "verify", "--warehouse", wh.toString()));
  }

  private static Path dataFile(Path wh, String table) throws Exception {
    try (Stream<Path> files = Files.list(wh.resolve(table))) {
      List<Path> parts = files.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList();
      return parts.get(0);
    }
  }
}
