package dev.benchlake.app.study;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A study never overwrites another: its folder must be new or empty. */
final class StudyFolders {
  private StudyFolders() {}

  static void requireNewOrEmpty(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new BadInputException("--out " + dir + " is a file, not a folder");
    }
    try (Stream<Path> entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new BadInputException("--out " + dir + " is not empty; give a new folder for each study");
      }
    } catch (IOException e) {
      throw new BadInputException("--out " + dir + ": " + e.getMessage(), e);
    }
  }
}
