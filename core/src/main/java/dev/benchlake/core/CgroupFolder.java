package dev.benchlake.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Removes a cgroup folder that benchlake made (a duet side's cpuset group): the kernel refuses to
 * remove a group that still holds a process, so every process in it goes back to the parent group
 * first. One definition for whoever removes it: the duet's coordinator at the end of a study, the
 * side itself when its coordinator died, the next study or {@code study clean} when both did.
 */
public final class CgroupFolder {
  private CgroupFolder() {}

  /** Moves the processes of {@code dir} to its parent group and removes it; nothing when it is gone already. */
  public static void remove(Path dir) throws IOException {
    Path parentProcs = dir.getParent().resolve("cgroup.procs");
    for (int attempt = 0; attempt < 3; attempt++) {
      if (!Files.isDirectory(dir)) {
        return;
      }
      try {
        for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"), StandardCharsets.UTF_8)) {
          if (!pid.isBlank()) {
            try {
              Files.writeString(parentProcs, pid.strip());
            } catch (IOException e) {
              // it ended meanwhile
            }
          }
        }
        Files.delete(dir);
        return;
      } catch (IOException e) {
        if (attempt == 2) {
          throw new IOException("cannot remove the cgroup " + dir + ": " + e.getMessage(), e);
        }
      }
    }
  }
}
