package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.ReportFolder;
import dev.benchlake.core.cli.BadInputException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes report.json, report.md and report.html into a folder, each atomically ({@link ReportFolder}). */
public final class CompareFiles {
  public static final String JSON = "report.json";
  public static final String MARKDOWN = "report.md";
  public static final String HTML = "report.html";

  private CompareFiles() {}

  /** @throws BadInputException when {@code folder} cannot be created (e.g. it is a file) */
  public static void write(ComparisonReport report, Provenance provenance, Path folder) {
    Map<String, String> files = new LinkedHashMap<>();
    files.put(JSON, CompareJson.write(report));
    files.put(MARKDOWN, CompareMarkdown.write(report));
    files.put(HTML, CompareHtml.write(report, provenance));
    ReportFolder.write(folder, files);
  }
}
