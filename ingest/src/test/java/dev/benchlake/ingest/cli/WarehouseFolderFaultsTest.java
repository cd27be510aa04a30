package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
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

  /** A pgbench log of {@code lines} lines with random latencies (they compress badly: they fill the disk). */
  private Path bigLog(int lines) throws Exception {
    Random random = new Random(5);
    StringBuilder text = new StringBuilder(lines * 40);
    for (int i = 0; i < lines; i++) {
      text.append(i % 4).append(' ').append(i / 4).append(' ').append(100 + random.nextInt(1_000_000)).append(" 0 ")
          .append(1_700_000_000 + i / 10_000).append(' ').append(random.nextInt(1_000_000)).append('\n');
    }
    return Files.writeString(tmp.resolve("pgbench_log.777"), text, StandardCharsets.UTF_8);
  }

  @Test
  void aDiskThatFillsMidIngestKeepsTheWarehouseWholeAndTheRetryLandsOnce() throws Exception {
    Path big = bigLog(LINES);
    try (HostileFolders.Folder disk = HostileFolders.fullDisk(tmp, "small", 384 * 1024)) {
      Path warehouse = disk.path().resolve("warehouse");
      CommandRun first = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(),
          fixture("pgbench_log.4242").toString());
      assertThat(first.exitCode()).as(first.stderr()).isZero();
      Warehouse w = Warehouse.at(spark, warehouse.toString());
      List<String> before = w.tasks().orderBy("run_id", "client_id", "seq").toJSON().collectAsList();

      CommandRun full = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(), big.toString());
      assertThat(full.exitCode()).as(full.stderr()).isIn(ExitCode.FAILURE, ExitCode.BAD_INPUT);
      List<String> errors = full.stderr().lines().filter(l -> l.startsWith("ingest: ")).toList();
      assertThat(errors).as(full.stderr()).singleElement().asString().contains("No space left on device");
      assertThat(full.stderr()).doesNotContain("\tat ");

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
