package dev.benchlake.analysis.report;

import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes a report's files (name → UTF-8 text) into a folder, creating it. Each file is written
 * atomically: a full disk or a kill leaves the previous file (or none), never half of one.
 */
public final class ReportFolder {
  private ReportFolder() {}

  /**
   * @throws BadInputException when {@code folder} cannot be created (e.g. it is a file) or is not writable
   * @throws UncheckedIOException when a write fails (a full disk); the previous files are then intact
   */
  public static void write(Path folder, Map<String, String> files) {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new BadInputException("cannot create the output folder " + folder + ": " + e.getMessage(), e);
    }
    if (!Files.isWritable(folder)) {
      // A read-only mount or a folder of someone else: the user's choice of folder, said before writing.
      throw new BadInputException("cannot write into the output folder " + folder + ": not writable (read-only file system or permissions)");
    }
    try {
      for (Map.Entry<String, String> file : files.entrySet()) {
        AtomicFiles.writeString(folder.resolve(file.getKey()), file.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report into " + folder + ": " + e.getMessage(), e);
    }
  }
}
