package dev.benchlake.core.raw;

import java.nio.file.Files;
import java.nio.file.Path;

/** The layout of a loadgen run directory. */
public final class RunDirectory {
  public static final String MANIFEST = "manifest.json";
  public static final String TASKS = "tasks.csv";
  /**
   * The compact form of {@link #TASKS} ({@code loadgen --tasks-file csv.gz}): the same lines, gzip
   * with a sync flush at each of the writer's flushes ({@link GzipTasks}).
   */
  public static final String TASKS_GZ = "tasks.csv.gz";

  private RunDirectory() {}

  public static Path manifest(Path runDir) {
    return runDir.resolve(MANIFEST);
  }

  public static Path tasks(Path runDir) {
    return runDir.resolve(TASKS);
  }

  /**
   * The run's tasks file: tasks.csv, or where there is none, tasks.csv.gz (a run keeps one of
   * them); tasks.csv when neither exists.
   */
  public static Path tasksFile(Path runDir) {
    Path plain = tasks(runDir);
    Path compact = runDir.resolve(TASKS_GZ);
    return !Files.exists(plain) && Files.exists(compact) ? compact : plain;
  }

  /** Whether {@code name} is a tasks file's name: tasks.csv or tasks.csv.gz. */
  public static boolean isTasksFile(String name) {
    return name.equals(TASKS) || name.equals(TASKS_GZ);
  }

  /** Whether {@code dir} looks like a loadgen run directory (it has a manifest). */
  public static boolean isRunDirectory(Path dir) {
    return Files.isDirectory(dir) && Files.isRegularFile(manifest(dir));
  }
}
