package dev.benchlake.analysis.report;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes a report's files (name → UTF-8 text) into a folder, creating it. */
public final class ReportFolder {
  private ReportFolder() {}

  /** @throws BadInputException when {@code folder} cannot be created (e.g. it is a file) */
  public static void write(Path folder, Map<String, String> files) {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new BadInputException("cannot create the output folder " + folder + ": " + e.getMessage(), e);
    }
    try {
      for (Map.Entry<String, String> file : files.entrySet()) {
        Files.writeString(folder.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report into " + folder, e);
    }
  }
}
