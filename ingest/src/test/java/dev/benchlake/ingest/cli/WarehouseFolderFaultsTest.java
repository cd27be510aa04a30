package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.PgbenchLogs;
import dev.benchlake.warehouse.Warehouse;
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
}
