package dev.benchlake.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Whole folders in tests: copied (fixtures are never worked on in place), and snapshot to prove nothing was written. */
public final class FileTrees {
  private FileTrees() {}

  /** A copy of the folder {@code from} (everything in it) at {@code to} (created); a missing {@code from} copies nothing. */
  public static Path copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    if (!Files.exists(from)) {
      return to;
    }
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  /** Deletes a folder and everything in it (a damage done to a copy); a missing one is nothing to do. */
  public static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * Every entry under a folder with its size and modification time: two equal snapshots taken
   * around a command prove it wrote nothing there (no file added, removed, changed or touched).
   *
   * @param skipped top-level entries left out (e.g. {@code _locks}, which any ingest may touch)
   * @return relative path → {@code size@mtime} of a file, {@code dir} of a folder
   */
  public static Map<Path, String> snapshot(Path dir, String... skipped) throws IOException {
    Map<Path, String> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path rel = dir.relativize(p);
        if (List.of(skipped).stream().anyMatch(rel::startsWith)) {
          continue;
        }
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.put(rel, a.isDirectory() ? "dir" : a.size() + "@" + a.lastModifiedTime().toMillis());
      }
    }
    return out;
  }
}
