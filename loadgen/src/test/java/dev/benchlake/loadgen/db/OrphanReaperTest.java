package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.ProcessIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What counts as an orphaned server, without PostgreSQL: clusters made here with an owner file, and
 * a {@code sleep} standing in for a postmaster (its working folder the cluster's data folder, where
 * PostgreSQL changes to), so that the stop is real and cheap. A JVM's child inherits SIGQUIT
 * blocked (a postmaster unblocks it; sleep does not), so the stand-in is one that does not stop on
 * it: it is killed once its time is up.
 */
class OrphanReaperTest {
  @TempDir
  Path parent;

  private Process dead;
  private Process stranger;

  @BeforeEach
  void linux() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc");
    dead = new ProcessBuilder("true").start();
    assertThat(dead.waitFor(10, TimeUnit.SECONDS)).isTrue();
  }

  @AfterEach
  void noStranger() {
    if (stranger != null) {
      stranger.destroyForcibly();
    }
  }

  /** A cluster folder as EmbeddedServer makes it, owned by {@code owner}. */
  private Path cluster(String name, ProcessIdentity owner) throws Exception {
    Path dir = Files.createDirectories(parent.resolve(name).resolve("data")).getParent();
    new ServerOwner(owner, "/studies/s1").write(dir);
    return dir;
  }

  /** A process in {@code cwd}, named in {@code data}'s postmaster.pid. */
  private Process postmasterIn(Path cwd, Path data) throws Exception {
    Process p = new ProcessBuilder("sleep", "120").directory(cwd.toFile()).start();
    Files.writeString(data.resolve("postmaster.pid"), p.pid() + "\n" + data + "\n");
    return p;
  }

  @Test
  void aServerWhoseOwnerIsGoneIsStoppedAndRemovedAtOnce() throws Exception {
    Path dir = cluster("benchlake-pg17-1", new ProcessIdentity(dead.pid(), 1));
    Process server = postmasterIn(dir.resolve("data"), dir.resolve("data"));
    try {
      List<OrphanReaper.Orphan> found = OrphanReaper.find(parent);
      assertThat(found).extracting(OrphanReaper.Orphan::dir).containsExactly(dir);
      assertThat(found.get(0).postmaster()).isEqualTo(server.pid());
      assertThat(found.get(0).describe()).contains("server pid " + server.pid() + " running")
          .contains("its owner (pid " + dead.pid() + ") is gone").contains("study /studies/s1");
      OrphanReaper.remove(found.get(0), 300);
      assertThat(server.waitFor(5, TimeUnit.SECONDS)).as("killed once its time to stop was up").isTrue();
      assertThat(dir).doesNotExist();
    } finally {
      server.destroyForcibly();
    }
  }

  @Test
  void aLiveOwnersServerIsNeverTouchedButAPidGivenToAnotherProcessIsNoOwner() throws Exception {
    ProcessIdentity self = ProcessIdentity.current();
    Path live = cluster("benchlake-pg17-live", self);
    Files.setLastModifiedTime(live, FileTime.from(Instant.now().minusSeconds(3600)));
    Path recycled = cluster("benchlake-pg17-recycled", new ProcessIdentity(self.pid(), self.startTicks() + 1));
    assertThat(OrphanReaper.find(parent)).extracting(OrphanReaper.Orphan::dir).containsExactly(recycled);
  }

  @Test
  void whatBenchlakeDidNotStartIsNeverTouched() throws Exception {
    Path foreign = Files.createDirectories(parent.resolve("someone-elses-pg").resolve("data"));
    new ServerOwner(new ProcessIdentity(dead.pid(), 1), null).write(foreign.getParent());
    // A cluster of an earlier benchlake (no owner file) whose lock file is gone: not provably benchlake's server.
    Path unowned = Files.createDirectories(parent.resolve("benchlake-pg17-noowner").resolve("data")).getParent();
    Files.setLastModifiedTime(unowned, FileTime.from(Instant.now().minusSeconds(3600)));
    assertThat(OrphanReaper.find(parent)).isEmpty();

    // An orphan whose postmaster.pid names a process that is not its server (a pid given to another
    // process since): the folder goes, the process is left alone.
    Path orphan = cluster("benchlake-pg17-2", new ProcessIdentity(dead.pid(), 1));
    stranger = postmasterIn(parent, orphan.resolve("data"));
    List<OrphanReaper.Orphan> found = OrphanReaper.find(parent);
    assertThat(found).extracting(OrphanReaper.Orphan::dir).containsExactly(orphan);
    assertThat(found.get(0).postmaster()).isNull();
    OrphanReaper.remove(found.get(0), 300);
    assertThat(orphan).doesNotExist();
    assertThat(stranger.isAlive()).isTrue();
    assertThat(foreign).exists();
    assertThat(unowned).exists();
  }

  @Test
  void aCoordinatorStopsTheServersOfItsDeadSideOnly() throws Exception {
    Process other = new ProcessBuilder("true").start();
    assertThat(other.waitFor(10, TimeUnit.SECONDS)).isTrue();
    ProcessIdentity side = ProcessIdentity.of(ProcessHandle.current().pid()).orElseThrow();
    ProcessIdentity deadSide = new ProcessIdentity(dead.pid(), 7);
    Path mine = cluster("benchlake-pg17-mine", deadSide);
    Path elses = cluster("benchlake-pg17-else", new ProcessIdentity(other.pid(), 7));
    assertThat(OrphanReaper.stopServersOf(deadSide, parent)).extracting(OrphanReaper.Orphan::dir).containsExactly(mine);
    assertThat(mine).doesNotExist();
    assertThat(elses).exists();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> OrphanReaper.stopServersOf(side, parent))
        .isInstanceOf(IllegalStateException.class);
  }
}
