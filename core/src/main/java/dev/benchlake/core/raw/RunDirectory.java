package dev.benchlake.core.raw;

import java.nio.file.Files;
import java.nio.file.Path;

/** The layout of a loadgen run directory. */
public final class RunDirectory {
  public static final String MANIFEST = "manifest.json";
  public static final String TASKS = "tasks.csv";

  private RunDirectory() {}

  public static Path manifest(Path runDir) {
    return runDir.resolve(MANIFEST);
  }

  public static Path tasks(Path runDir) {
    return runDir.resolve(TASKS);
  }

  /** Whether {@code dir} looks like a loadgen run directory (it has a manifest). */
  public static boolean isRunDirectory(Path dir) {
    return Files.isDirectory(dir) && Files.isRegularFile(manifest(dir));
  }
}
