package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.ProcessIdentity;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code study clean} on clusters made here (no PostgreSQL): an orphan (its owner an exited
 * process) listed by {@code --dry-run} and kept, then removed; a live owner's cluster and a folder
 * benchlake did not make never touched. (What an orphan's server gets is OrphanReaperTest's.)
 */
class CleanCommandTest {
  @Test
  void listsThenRemovesOrphansOnlyAndNeverALiveOwnersServer(@TempDir Path pg) throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc");
    Process gone = new ProcessBuilder("true").start();
    assertThat(gone.waitFor(10, TimeUnit.SECONDS)).isTrue();
    Path orphan = cluster(pg, "benchlake-pg17-orphan", new ProcessIdentity(gone.pid(), 1));
    Path live = cluster(pg, "benchlake-pg17-live", ProcessIdentity.current());
    Path foreign = Files.createDirectories(pg.resolve("my-own-cluster").resolve("data"));

    CommandRun dry = CommandRun.of(Cli.commandLine(new StudyCommand()), "clean", "--dry-run", "--pg-dir", pg.toString());
    assertThat(dry.exitCode()).as(dry.stderr()).isEqualTo(ExitCode.OK);
    assertThat(dry.stdout()).contains("would remove the orphaned server " + orphan + ": no server running, its owner (pid "
        + gone.pid() + ") is gone, study /studies/s1").doesNotContain(live.toString());
    assertThat(orphan).exists();

    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "clean", "--pg-dir", pg.toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stdout()).contains("removed the orphaned server " + orphan);
    assertThat(orphan).doesNotExist();
    assertThat(live).exists();
    assertThat(foreign).exists();

    CommandRun nothing = CommandRun.of(Cli.commandLine(new StudyCommand()), "clean", "--dry-run", "--pg-dir",
        pg.toString());
    assertThat(nothing.stdout()).doesNotContain(pg.toString() + "/benchlake-pg17");
  }

  private static Path cluster(Path parent, String name, ProcessIdentity owner) throws Exception {
    Path dir = Files.createDirectories(parent.resolve(name).resolve("data")).getParent();
    Files.writeString(dir.resolve(dev.benchlake.loadgen.db.ServerOwner.FILE), "{\"owner_pid\": " + owner.pid()
        + ", \"owner_start\": " + owner.startTicks() + ", \"study\": \"/studies/s1\"}\n");
    return dir;
  }
}
