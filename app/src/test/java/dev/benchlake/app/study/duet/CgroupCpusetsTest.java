package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.CpuList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a duet's cpuset groups go, from a machine's mounts and groups (as {@code /proc} gives
 * them); and on this machine, where it allows them (root), a real group moving a real process.
 */
class CgroupCpusetsTest {
  private static final String V1_CPUSET = "33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset";
  private static final String V1_CPU = "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu";
  private static final String V2 = "40 30 0:37 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 "
      + "cgroup2 rw,nsdelegate";

  @Test
  void cgroupV1sCpusetControllerUnderThisProcesssOwnGroup(@TempDir Path root) {
    var found = CgroupCpusets.locate(List.of(V1_CPU, V1_CPUSET), List.of("1:cpu:/", "3:cpuset:/docker/abc", "0::/"),
        root);
    assertThat(found).isPresent();
    assertThat(found.get().parent()).isEqualTo(root.resolve("sys/fs/cgroup/cpuset/docker/abc"));
    assertThat(found.get().v2()).isFalse();
  }

  @Test
  void aV1MountOfASubtreeIsResolvedFromItsRoot(@TempDir Path root) {
    String mount = "33 30 0:30 /docker/abc /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset,cpu";
    var found = CgroupCpusets.locate(List.of(mount), List.of("3:cpu,cpuset:/docker/abc/inner"), root);
    assertThat(found.get().parent()).isEqualTo(root.resolve("sys/fs/cgroup/cpuset/inner"));
  }

  @Test
  void cgroupV2WhenItsRootOffersTheCpusetController(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("sys/fs/cgroup"));
    Files.writeString(root.resolve("sys/fs/cgroup/cgroup.controllers"), "cpuset cpu io memory pids\n");
    var found = CgroupCpusets.locate(List.of(V2), List.of("0::/user.slice/me"), root);
    assertThat(found).isPresent();
    assertThat(found.get().parent()).isEqualTo(root.resolve("sys/fs/cgroup/user.slice/me"));
    assertThat(found.get().v2()).isTrue();
  }

  @Test
  void noCpusetControllerNoGroups(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("sys/fs/cgroup"));
    Files.writeString(root.resolve("sys/fs/cgroup/cgroup.controllers"), "cpu io memory pids\n");
    assertThat(CgroupCpusets.locate(List.of(V2), List.of("0::/"), root)).isEmpty();
    assertThat(CgroupCpusets.locate(List.of(V1_CPU), List.of("1:cpu:/"), root)).isEmpty();
    var found = CgroupCpusets.find(List.of(V1_CPU), List.of("1:cpu:/"), root);
    assertThat(found.cpusets()).isEmpty();
    assertThat(found.why()).isEqualTo("this machine mounts no cgroup cpuset controller");
  }

  @Test
  void aGroupMovesEveryProcessInItWithOneWriteAndIsRemovedWithItsProcessesHandedBack() throws Exception {
    CgroupCpusets.Found found = CgroupCpusets.find();
    assumeTrue(found.cpusets().isPresent(), found.why());
    CpuList all = DuetCpus.available();
    assumeTrue(all.size() >= 2, "one CPU");
    List<CpuList> halves = all.split(all.size() / 2);
    CgroupCpusets cpusets = found.cpusets().get();
    Process child;
    Path dir;
    try (CgroupCpusets.Group group = cpusets.create("t", halves.get(0))) {
      dir = group.procs().getParent();
      // The side's way in: a shell that joins the group, then becomes the program (and its children stay in).
      child = new ProcessBuilder("sh", "-c", "echo $$ > \"$0\" && exec sh -c 'sleep 30 & wait'", group.procs().toString())
          .start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (Files.readAllLines(group.procs()).size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      List<Long> pids = Files.readAllLines(group.procs()).stream().map(Long::parseLong).toList();
      assertThat(pids).as("the shell and the sleep it started").hasSize(2).contains(child.pid());
      pids.forEach(pid -> assertThat(CpuList.allowedFor(pid)).contains(halves.get(0)));

      group.cpus(halves.get(1));
      assertThat(group.cpus()).isEqualTo(halves.get(1));
      pids.forEach(pid -> assertThat(CpuList.allowedFor(pid)).as("pid %d after one write", pid).contains(halves.get(1)));
    }
    try {
      assertThat(dir).doesNotExist();
      assertThat(child.isAlive()).as("handed back to the parent group, not killed").isTrue();
      assertThat(Files.readAllLines(cpusets.parent().resolve("cgroup.procs"))).contains(Long.toString(child.pid()));
    } finally {
      child.descendants().forEach(ProcessHandle::destroy);
      child.destroy();
    }
  }

  @Test
  void aGroupLeftByACoordinatorThatIsGoneIsRemovedByTheNextOne() throws Exception {
    CgroupCpusets.Found found = CgroupCpusets.find();
    assumeTrue(found.cpusets().isPresent(), found.why());
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path stale = found.cpusets().get().parent().resolve("benchlake-duet-" + gone.pid() + "-a");
    Files.createDirectory(stale);
    assertThat(stale).isDirectory();
    assertThat(CgroupCpusets.find().cpusets()).isPresent();
    assertThat(stale).doesNotExist();
  }
}
