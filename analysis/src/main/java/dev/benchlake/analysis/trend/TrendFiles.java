package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.ReportFolder;
import dev.benchlake.core.cli.BadInputException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes trend.json, trend.md and trend.html into a folder. */
public final class TrendFiles {
  public static final String JSON = "trend.json";
  public static final String MARKDOWN = "trend.md";
  public static final String HTML = "trend.html";

  private TrendFiles() {}

  /** @throws BadInputException when {@code folder} cannot be created (e.g. it is a file) */
  public static void write(TrendReport report, Provenance provenance, Path folder) {
    Map<String, String> files = new LinkedHashMap<>();
    files.put(JSON, TrendJson.write(report));
    files.put(MARKDOWN, TrendMarkdown.write(report));
    files.put(HTML, TrendHtml.write(report, provenance));
    ReportFolder.write(folder, files);
  }
}
