package dev.benchlake.analysis.report;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes report.json and report.md into a folder. */
public final class ReportFiles {
  public static final String JSON = "report.json";
  public static final String MARKDOWN = "report.md";

  private ReportFiles() {}

  /**
   * @throws BadInputException when {@code folder} cannot be created (e.g. it is a file)
   */
  public static void write(ComparisonReport report, Path folder) {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new BadInputException("cannot create the output folder " + folder + ": " + e.getMessage(), e);
    }
    try {
      Files.writeString(folder.resolve(JSON), ReportJson.write(report), StandardCharsets.UTF_8);
      Files.writeString(folder.resolve(MARKDOWN), ReportMarkdown.write(report), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report into " + folder, e);
    }
  }
}
