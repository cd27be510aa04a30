package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.ingest.PgbenchLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills up during an ingest, as a user meets it: {@code bin/benchlake ingest} (its
 * logging configuration, Spark's executors in the same JVM) into a warehouse on a real 384 KiB
 * tmpfs. Exit 1, one line on stderr (it was 746, 398 of them stack-trace lines, from Spark's and
 * Delta's logs of the failed task and job), and nothing left behind (a half-written task file of
 * 316 KB was): the warehouse folder holds only its lock files. A warehouse that already holds runs,
 * and the retry once there is room: ingest's {@code WarehouseFolderFaultsTest}, in-process (one
 * launcher run here, not three: each starts Spark).
 */
@org.junit.jupiter.api.Tag("integration")
class FullDiskLauncherIT {
  @TempDir
  Path dir;

  @Test
  void aFullDiskIsOneLineOnStderrExitOneAndLeavesNothingBehind() throws Exception {
    Path work = Files.createDirectories(dir.resolve("work"));
    Path big = PgbenchLogs.random(dir.resolve("pgbench_log.777"), 80_000, 5);
    try (HostileFolders.Folder disk = HostileFolders.fullDisk(dir, "small", 384 * 1024)) {
      Path warehouse = disk.path().resolve("warehouse");
      CommandRun full = CommandRun.benchlake(FullDiskLauncherIT.class, work, Map.of(), "ingest", "--warehouse",
          warehouse.toString(), "--format", "pgbench-log", big.toString());
      assertThat(full.exitCode()).as(full.stderr()).isEqualTo(ExitCode.FAILURE);
      // Besides ingest's progress lines (a status every few seconds when stderr is not a terminal).
      assertThat(full.stderr().lines().filter(l -> !l.isBlank() && !l.startsWith("parsing: ")).toList())
          .as(full.stderr()).singleElement().asString()
          .isEqualTo("benchlake ingest: failed: No space left on device; free some space and run it again");
      assertThat(full.stdout()).isEmpty();
      assertThat(FileTrees.snapshot(warehouse, "_locks")).as("nothing in the warehouse folder but its lock files")
          .isEqualTo(Map.of(Path.of(""), "dir"));
    }
  }
}
