package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.PgbenchLogs;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.write.WarehouseWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A warehouse folder that cannot be written (read-only) or whose disk fills up in the middle of an
 * ingest (a 384 KiB tmpfs): one clear line and a non-zero exit, the runs already there untouched and
 * readable, nothing of the failed run visible; once there is room, the same ingest lands the run
 * exactly once.
 */
@org.junit.jupiter.api.Tag("integration")
class WarehouseFolderFaultsTest extends IngestTestSupport {
  /** Lines of the big log: its Parquet files are well over the 384 KiB. */
  private static final int LINES = 80_000;

  @Test
  void aReadOnlyWarehouseFolderIsOneLineAndExit2() throws Exception {
    try (HostileFolders.Folder readOnly = HostileFolders.readOnly(tmp, "ro")) {
      Path warehouse = readOnly.path().resolve("warehouse");
      CommandRun run = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(),
          fixture("pgbench_log.4242").toString());
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr().lines().filter(l -> l.startsWith("ingest: ")).toList()).as(run.stderr()).singleElement()
          .asString().contains(warehouse.toString()).contains("is not writable");
      assertThat(run.stderr()).doesNotContain("BENCHLAKE_DEBUG");
      try (Stream<Path> left = Files.list(readOnly.path())) {
        assertThat(left).isEmpty();
      }
    }
  }

  /**
   * A full disk while the tasks are written: exit 1, one line on stderr naming the cause and the next
   * step, no file left behind (Delta leaves the files of a failed write; {@code StagedAppend}
   * removes them), the runs already there unchanged; once there is room, the same ingest lands the
   * run once. What the user sees through {@code bin/benchlake}, Spark's logs included, is app's
   * {@code FullDiskLauncherIT}.
   */
  @Test
  void aDiskThatFillsMidIngestKeepsTheWarehouseWholeAndTheRetryLandsOnce() throws Exception {
    Path big = PgbenchLogs.random(tmp.resolve("pgbench_log.777"), LINES, 5);
    try (HostileFolders.Folder disk = HostileFolders.fullDisk(tmp, "small", 384 * 1024)) {
      Path warehouse = disk.path().resolve("warehouse");
      CommandRun first = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(),
          fixture("pgbench_log.4242").toString());
      assertThat(first.exitCode()).as(first.stderr()).isZero();
      Warehouse w = Warehouse.at(spark, warehouse.toString());
      List<String> before = w.tasks().orderBy("run_id", "client_id", "seq").toJSON().collectAsList();
      Map<Path, String> filesBefore = FileTrees.snapshot(warehouse, "_locks");

      CommandRun full = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(), "--format", "pgbench-log",
          big.toString());
      assertThat(full.exitCode()).as(full.stderr()).isEqualTo(ExitCode.FAILURE);
      // A pass longer than the progress interval (a loaded machine) also prints its periodic status line.
      assertThat(full.stderr().lines().filter(l -> !l.isBlank() && !l.startsWith("parsing: ")).toList())
          .as(full.stderr()).singleElement().asString()
          .isEqualTo("ingest: failed: No space left on device; free some space and run it again");
      assertThat(FileTrees.snapshot(warehouse, "_locks")).as("every file and folder but the lock files as before")
          .isEqualTo(filesBefore);

      Warehouse after = Warehouse.at(spark, warehouse.toString());
      assertThat(after.runs().count()).as("only the first run is visible").isEqualTo(1);
      assertThat(after.tasks().orderBy("run_id", "client_id", "seq").toJSON().collectAsList()).isEqualTo(before);

      disk.resize(256L * 1024 * 1024);
      CommandRun retry = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(), big.toString());
      assertThat(retry.exitCode()).as(retry.stderr()).isZero();
      Warehouse done = Warehouse.at(spark, warehouse.toString());
      assertThat(done.runs().count()).isEqualTo(2);
      assertThat(done.tasks().count()).isEqualTo(before.size() + (long) LINES);
      assertThat(done.tasks().select("run_id", "client_id", "seq").distinct().count()).isEqualTo(before.size() + (long) LINES);
    }
  }

  /**
   * The disk fills right at the commit point, as Delta writes the runs table's log file (issue 44:
   * Hadoop's {@code FSError}, an Error, went out as 96 lines of stack, and the runs data file written
   * for the commit stayed in the folder, named by no log, also after the retry): exit 1, the one line,
   * no data file that no log names, the run not visible; once there is room the retry lands it once,
   * and still every data file is one a log names.
   */
  @Test
  void aDiskThatFillsAtTheRunsCommitIsOneLineAndLeavesNoFileNoLogNames() throws Exception {
    try (HostileFolders.Folder disk = HostileFolders.fullDisk(tmp, "small", 4L * 1024 * 1024)) {
      Path warehouse = disk.path().resolve("warehouse");
      CommandRun first = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(),
          fixture("pgbench_log.4242").toString());
      assertThat(first.exitCode()).as(first.stderr()).isZero();
      Path filler = disk.path().resolve("filler");
      IngestCommand full = new IngestCommand();
      full.commits = new WarehouseWriter.CommitListener() {
        @Override
        public void staged(Table table) {
          if (table == Table.RUNS) {
            fill(filler);
          }
        }
      };
      CommandRun atRuns = CommandRun.of(full, "--warehouse", warehouse.toString(), "--format", "pgbench-log",
          fixture("pgbench_log.4242.1").toString());
      assertThat(atRuns.exitCode()).as(atRuns.stderr()).isEqualTo(ExitCode.FAILURE);
      assertThat(atRuns.stderr().lines().filter(l -> !l.isBlank()).toList()).as(atRuns.stderr()).singleElement().asString()
          .isEqualTo("ingest: failed: No space left on device; free some space and run it again");
      assertThat(leftOver(warehouse)).as("files no log names").isEmpty();
      assertThat(Warehouse.at(spark, warehouse.toString()).runs().count()).as("only the first run is visible").isEqualTo(1);

      Files.delete(filler);
      CommandRun retry = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(),
          fixture("pgbench_log.4242.1").toString());
      assertThat(retry.exitCode()).as(retry.stderr()).isZero();
      Warehouse done = Warehouse.at(spark, warehouse.toString());
      assertThat(done.runs().count()).isEqualTo(2);
      assertThat(done.tasks().count()).isEqualTo(20);
      assertThat(leftOver(warehouse)).as("files no log names after the retry").isEmpty();
    }
  }

  /** Writes {@code file} until the file system is full. */
  private static void fill(Path file) {
    byte[] block = new byte[64 * 1024];
    try (java.io.OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(block);
      }
    } catch (java.io.IOException full) {
      // as meant
    }
  }

  /**
   * The files of every table of {@code warehouse} that no commit of its log names: data files no
   * commit adds (or removes), temporary files of commits.
   */
  private static List<Path> leftOver(Path warehouse) throws java.io.IOException {
    List<Path> unnamed = new java.util.ArrayList<>();
    for (Table table : Table.values()) {
      Path folder = warehouse.resolve(table.dirName());
      if (!Files.isDirectory(folder)) {
        continue;
      }
      java.util.Set<String> named = new java.util.HashSet<>();
      try (Stream<Path> log = Files.list(folder.resolve("_delta_log"))) {
        for (Path commit : log.filter(f -> f.getFileName().toString().endsWith(".json")).toList()) {
          for (String line : Files.readAllLines(commit)) {
            com.fasterxml.jackson.databind.JsonNode action = dev.benchlake.core.Json.mapper().readTree(line);
            for (String kind : List.of("add", "remove")) {
              if (action.has(kind)) {
                named.add(action.get(kind).get("path").asText());
              }
            }
          }
        }
      }
      try (Stream<Path> files = Files.list(folder)) {
        files.filter(f -> f.getFileName().toString().endsWith(".parquet") && !named.contains(f.getFileName().toString()))
            .forEach(unnamed::add);
      }
      try (Stream<Path> log = Files.list(folder.resolve("_delta_log"))) {
        log.filter(f -> f.getFileName().toString().contains(".tmp")).forEach(unnamed::add);
      }
    }
    return unnamed;
  }
}
