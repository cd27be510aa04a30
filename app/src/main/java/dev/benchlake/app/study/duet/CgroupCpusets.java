package dev.benchlake.app.study.duet;

import dev.benchlake.core.CgroupFolder;
import dev.benchlake.core.CpuList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cgroup cpuset hierarchy in which a duet's coordinator makes one group per side: every
 * process of a side (its client JVM, the embedded server it starts, every backend) is in its
 * side's group, so that one write of the group's {@code cpuset.cpus} moves them all at once,
 * without starting a process. That is what lets the sides swap CPU sets inside a window
 * ({@link InWindowCpuSwap}); a {@code taskset} per process was far too slow for that.
 *
 * <p>Either cgroup v1's cpuset controller or v2's unified hierarchy with the cpuset controller,
 * under this process's own group. Making groups takes root or a delegated subtree; {@link #find}
 * says why not where it cannot.
 */
public final class CgroupCpusets {
  /** The groups' names: the coordinator's pid and the side, so that a crashed study's are known as stale. */
  private static final Pattern GROUP = Pattern.compile("benchlake-duet-(\\d+)-([a-z]+)");

  private final Path parent;
  private final boolean v2;

  CgroupCpusets(Path parent, boolean v2) {
    this.parent = parent;
    this.v2 = v2;
  }

  /** Where the groups go: this process's own cpuset group. */
  public Path parent() {
    return parent;
  }

  /** What {@link #find} found, or why there is nothing to use. */
  public record Found(Optional<CgroupCpusets> cpusets, String why) {}

  private static Found forThisProcess;

  /**
   * {@link #find}'s answer, found once per process: the option's check and every round of a study
   * use the same hierarchy, and the probe group need not be made again.
   */
  public static synchronized Found forThisProcess() {
    if (forThisProcess == null) {
      forThisProcess = find();
    }
    return forThisProcess;
  }

  /** The hierarchy of this machine ({@code /proc/self/mountinfo}, {@code /proc/self/cgroup}), tried by making a group. */
  public static Found find() {
    try {
      return find(Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8),
          Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8), Path.of("/"));
    } catch (IOException e) {
      return new Found(Optional.empty(), "no /proc/self/mountinfo or /proc/self/cgroup (not Linux)");
    }
  }

  /**
   * @param mountinfo the lines of {@code /proc/self/mountinfo}
   * @param cgroup the lines of {@code /proc/self/cgroup}
   * @param root where the mount points are (a test's folder; {@code /} on the machine)
   */
  static Found find(List<String> mountinfo, List<String> cgroup, Path root) {
    Optional<CgroupCpusets> found = locate(mountinfo, cgroup, root);
    if (found.isEmpty()) {
      return new Found(Optional.empty(), "this machine mounts no cgroup cpuset controller");
    }
    CgroupCpusets c = found.get();
    c.removeStale();
    try {
      c.enableController();
      Group probe = c.create("probe", CpuList.parse(readFirstLine(c.parent.resolve(
          c.v2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus")).orElse("0").strip()));
      probe.close();
    } catch (IOException | RuntimeException e) {
      return new Found(Optional.empty(), "cannot make a cpuset group in " + c.parent + " (" + e.getMessage()
          + "): it takes root, or a delegated cgroup subtree");
    }
    return new Found(found, "cgroup " + (c.v2 ? "v2" : "v1") + " cpuset groups in " + c.parent);
  }

  /** Where this process's cpuset group is, from the mounts and its groups, without trying it. */
  static Optional<CgroupCpusets> locate(List<String> mountinfo, List<String> cgroup, Path root) {
    Optional<Mount> v1 = mount(mountinfo, false);
    if (v1.isPresent()) {
      return ownGroup(cgroup, "cpuset").map(own -> new CgroupCpusets(v1.get().dir(root, own), false));
    }
    Optional<Mount> v2 = mount(mountinfo, true);
    if (v2.isPresent()) {
      Path top = v2.get().dir(root, v2.get().hierarchyRoot());
      if (namesCpuset(top.resolve("cgroup.controllers"))) {
        return ownGroup(cgroup, "").map(own -> new CgroupCpusets(v2.get().dir(root, own), true));
      }
    }
    return Optional.empty();
  }

  /** Whether this is cgroup v2's unified hierarchy. */
  boolean v2() {
    return v2;
  }

  /** A group of this coordinator's, named for {@code side}, its CPUs {@code cpus}. */
  public Group create(String side, CpuList cpus) throws IOException {
    Path dir = parent.resolve("benchlake-duet-" + ProcessHandle.current().pid() + "-" + side);
    if (Files.isDirectory(dir)) {
      new Group(dir).close(); // a group of an earlier round of this study that was left
    }
    Files.createDirectory(dir);
    Group group = new Group(dir);
    try {
      if (!v2) {
        // v1 takes no process into a group without memory nodes: the parent's.
        String mems = readFirstLine(parent.resolve("cpuset.mems")).orElse("").strip();
        if (mems.isEmpty()) {
          mems = readFirstLine(parent.resolve("cpuset.effective_mems")).orElse("0").strip();
        }
        Files.writeString(dir.resolve("cpuset.mems"), mems);
      }
      group.cpus(cpus);
    } catch (IOException | RuntimeException e) {
      group.close();
      throw e;
    }
    return group;
  }

  /** v2: the cpuset controller handed down to this process's group's children. */
  private void enableController() throws IOException {
    if (!v2) {
      return;
    }
    Path control = parent.resolve("cgroup.subtree_control");
    if (!namesCpuset(control)) {
      Files.writeString(control, "+cpuset");
    }
  }

  /** Groups whose coordinator is gone (it crashed, or was killed): their processes back to the parent, the group away. */
  private void removeStale() {
    for (Path dir : stale()) {
      try {
        new Group(dir).close();
      } catch (IOException e) {
        // left for the next time
      }
    }
  }

  /**
   * The groups of duets whose coordinator is gone (it crashed, or was killed, and its sides could
   * not remove them): what the next study and {@code study clean} remove. A group whose
   * coordinator's pid runs is kept, even when the kernel gave the pid to another process since: an
   * empty folder left a little longer is harmless, a live study's group removed is not.
   */
  public List<Path> stale() {
    List<Path> stale = new java.util.ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, "benchlake-duet-*")) {
      for (Path dir : dirs) {
        Matcher m = GROUP.matcher(dir.getFileName().toString());
        if (m.matches() && Files.isDirectory(dir) && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
          stale.add(dir);
        }
      }
    } catch (IOException e) {
      // nothing to tidy
    }
    stale.sort(null);
    return stale;
  }

  /** This process's cpuset hierarchy, found without making a group (empty: none, or not Linux). */
  public static Optional<CgroupCpusets> locate() {
    try {
      return locate(Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8),
          Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8), Path.of("/"));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Removes a group {@link #stale} found. */
  public static void remove(Path group) throws IOException {
    new Group(group).close();
  }

  /** Whether a v2 controller list ({@code cgroup.controllers}, {@code cgroup.subtree_control}) names cpuset. */
  private static boolean namesCpuset(Path controllers) {
    return readFirstLine(controllers).map(c -> List.of(c.split(" ")).contains("cpuset")).orElse(false);
  }

  private static Optional<String> readFirstLine(Path file) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() ? Optional.of("") : Optional.of(lines.get(0));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** A cgroup mount: its root within the hierarchy and where it is mounted. */
  private record Mount(String hierarchyRoot, String mountPoint) {
    /** The folder of group {@code path} (as /proc/self/cgroup names it). */
    Path dir(Path root, String path) {
      String rel = path;
      if (!hierarchyRoot.equals("/") && rel.startsWith(hierarchyRoot)) {
        rel = rel.substring(hierarchyRoot.length());
      }
      Path dir = root.resolve(mountPoint.substring(1));
      for (String part : rel.split("/")) {
        if (!part.isEmpty()) {
          dir = dir.resolve(part);
        }
      }
      return dir;
    }
  }

  /** The cgroup v1 mount with the cpuset controller, or ({@code v2}) the cgroup2 mount. */
  private static Optional<Mount> mount(List<String> mountinfo, boolean v2) {
    for (String line : mountinfo) {
      int dash = line.indexOf(" - ");
      if (dash < 0) {
        continue;
      }
      String[] before = line.substring(0, dash).split(" ");
      String[] after = line.substring(dash + 3).split(" ");
      if (before.length < 5 || after.length < 3) {
        continue;
      }
      boolean match = v2 ? after[0].equals("cgroup2")
          : after[0].equals("cgroup") && List.of(after[2].split(",")).contains("cpuset");
      if (match) {
        return Optional.of(new Mount(before[3], before[4]));
      }
    }
    return Optional.empty();
  }

  /** This process's group in the hierarchy of {@code controller} ({@code ""}: v2's). */
  private static Optional<String> ownGroup(List<String> cgroup, String controller) {
    for (String line : cgroup) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && (controller.isEmpty() ? parts[0].equals("0") && parts[1].isEmpty()
          : List.of(parts[1].split(",")).contains(controller))) {
        return Optional.of(parts[2]);
      }
    }
    return Optional.empty();
  }

  /** One side's group. */
  public static final class Group implements AutoCloseable {
    private final Path dir;

    Group(Path dir) {
      this.dir = dir;
    }

    /** The group's folder. */
    public Path dir() {
      return dir;
    }

    /** Where a process writes its pid to join: what a side's command does first. */
    public Path procs() {
      return dir.resolve("cgroup.procs");
    }

    /** Moves every process of the group to {@code cpus}: one write. */
    public void cpus(CpuList cpus) {
      try {
        Files.writeString(dir.resolve("cpuset.cpus"), cpus.toString());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot set " + dir.resolve("cpuset.cpus") + " to " + cpus, e);
      }
    }

    /** The group's CPUs as the kernel has them. */
    public CpuList cpus() {
      return CpuList.parse(readFirstLine(dir.resolve("cpuset.cpus")).orElse("").strip());
    }

    /**
     * Removes the group: a process still in it (a server its side left running) goes back to the
     * parent group first, since a group with a process cannot be removed ({@link CgroupFolder}).
     */
    @Override
    public void close() throws IOException {
      CgroupFolder.remove(dir);
    }
  }
}
