package dev.benchlake.ingest.format;

import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.parse.ParseSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Plans files with a format and runs their parsers in-process, without Spark: for parser tests. */
final class Parsing {
  private Parsing() {}

  /** Every verdict of every file of every source {@code format} plans for {@code files}, rendered. */
  static String render(SourceFormat format, IngestRequest request, Path... files) throws IOException {
    StringBuilder out = new StringBuilder();
    for (SourcePlan plan : format.plan(LocalPaths.of(files), request.planContext())) {
      for (SourcePlan.PlannedFile file : plan.files()) {
        RenderingSink sink = new RenderingSink();
        parse(file, sink);
        out.append("== ").append(file.path().getName()).append('\n').append(sink.text());
      }
    }
    return out.toString();
  }

  static void parse(SourcePlan.PlannedFile file, ParseSink sink) throws IOException {
    List<String> lines = lines(LocalPaths.local(file.path()));
    if (file.documentParser() != null) {
      file.documentParser().parse(lines, sink);
    } else {
      for (int i = 0; i < lines.size(); i++) {
        file.lineParser().parse(i + 1, lines.get(i), sink);
      }
    }
  }

  /** The lines of a file as the engine reads them: split on \n, a trailing \r dropped. */
  static List<String> lines(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    lines.replaceAll(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
    return lines;
  }
}
