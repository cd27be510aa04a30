package dev.benchlake.analysis.report;

import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes report.json and report.md into a folder, each atomically: a full disk or a kill leaves
 * the previous report (or none), never half of one.
 */
public final class ReportFiles {
  public static final String JSON = "report.json";
  public static final String MARKDOWN = "report.md";

  private ReportFiles() {}

  /**
   * @throws BadInputException when {@code folder} cannot be created (e.g. it is a file) or is not writable
   * @throws UncheckedIOException when a write fails (a full disk); the previous files are then intact
   */
  public static void write(ComparisonReport report, Path folder) {
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
      AtomicFiles.writeString(folder.resolve(JSON), ReportJson.write(report));
      AtomicFiles.writeString(folder.resolve(MARKDOWN), ReportMarkdown.write(report));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report into " + folder + ": " + e.getMessage(), e);
    }
  }
}
