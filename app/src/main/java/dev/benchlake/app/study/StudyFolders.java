package dev.benchlake.app.study;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A study never overwrites another: its folder must be new or empty. A folder of a study that did
 * not finish is no exception (its runs are the only record of what ran): the refusal says so.
 */
final class StudyFolders {
  private StudyFolders() {}

  /** Whether {@code dir} holds a study.json that says the study did not finish. */
  private static boolean unfinished(Path dir) {
    Path file = dir.resolve(StudyFile.NAME);
    try {
      return Files.isRegularFile(file)
          && !dev.benchlake.core.Json.mapper().readTree(file.toFile()).path("complete").asBoolean(true);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  static void requireNewOrEmpty(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new BadInputException("--out " + dir + " is a file, not a folder");
    }
    try (Stream<Path> entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new BadInputException("--out " + dir + " is not empty" + (unfinished(dir)
            ? " (it holds a study that did not finish: its study.json says \"complete\": false; its runs stay there)"
            : "") + "; give a new folder for each study");
      }
    } catch (IOException e) {
      throw new BadInputException("--out " + dir + ": " + e.getMessage(), e);
    }
  }
}
