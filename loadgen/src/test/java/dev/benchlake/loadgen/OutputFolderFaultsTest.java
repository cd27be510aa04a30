package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --out} where nothing can be written (a read-only folder) or where the disk fills up in the
 * middle of the run (a 256 KiB tmpfs): one clear line on stderr and exit 2 (before the run) or 1; a run
 * directory, if one was started, stays readable: its manifest is whole and says why the run
 * stopped, and tasks.csv holds whole lines except, at most, a last cut one (as after kill -9).
 */
@org.junit.jupiter.api.Tag("integration")
class OutputFolderFaultsTest {
  @TempDir
  Path tmp;

  private final EmbeddedServer server = TestServers.shared();

  private CommandRun loadgen(Path out, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("--jdbc-url", server.jdbcUrl().replaceFirst("\\?.*$", ""),
        "--user", server.user(), "--workload", "point-select", "--table-size", "1000", "--clients", "2",
        "--out", out.toString(), "--quiet"));
    args.addAll(List.of(more));
    return BadInputTest.run(args.toArray(String[]::new));
  }

  @Test
  void aReadOnlyOutputFolderIsOneLineAndExit2BeforeTheRun() throws Exception {
    try (HostileFolders.Folder readOnly = HostileFolders.readOnly(tmp, "ro")) {
      Path out = readOnly.path().resolve("run");
      CommandRun o = loadgen(out, "--tasks", "50");
      assertThat(o.exitCode()).as(o.stderr()).isEqualTo(2);
      assertThat(o.stderr().lines().toList()).hasSize(1).first().asString()
          .startsWith("loadgen: ").contains(out.toString()).contains("is not a writable directory");
      assertThat(out).doesNotExist();
    }
  }

  @Test
  void aDiskThatFillsMidRunLeavesAReadableInterruptedRun() throws Exception {
    try (HostileFolders.Folder disk = HostileFolders.fullDisk(tmp, "small", 256 * 1024)) {
      Path out = disk.path().resolve("run");
      // ~110 bytes a line: 50 000 tasks are ~5 MB, far beyond the 256 KiB.
      CommandRun o = loadgen(out, "--tasks", "50000");
      assertThat(o.exitCode()).as(o.stderr()).isEqualTo(ExitCode.FAILURE);
      assertThat(o.stderr().lines().toList()).as(o.stderr()).singleElement().asString()
          .startsWith("benchlake loadgen: run interrupted: ").contains("No space left on device");
      assertThat(o.stderr()).doesNotContain("\tat ");

      RunManifest manifest = RunManifest.read(RunDirectory.manifest(out));
      List<String> lines = Files.readAllLines(RunDirectory.tasks(out), StandardCharsets.UTF_8);
      assertThat(lines.get(0)).isEqualTo(TaskCsv.HEADER);
      List<String> body = lines.subList(1, lines.size());
      // Whole lines parse; only the very last one may be cut where the disk ran out.
      body.subList(0, Math.max(0, body.size() - 1)).forEach(TaskCsv::parse);
      assertThat(body.size()).as("tasks written before the disk filled").isPositive();
      if (manifest.status() != RunStatus.RUNNING) {
        // The final manifest fitted: it says the run was cut short and why.
        assertThat(manifest.status()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(manifest.error()).contains("No space left on device");
      }
    }
  }
}
