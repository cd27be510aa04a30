package dev.benchlake.ingest.format;

import dev.benchlake.core.Sha256;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.ingest.source.FileScanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * Any delimited file, read through a {@link CsvMapping}. Each file is one source: one run, or one
 * run per value of the run column ({@code tasks} layout), or one run per value column
 * ({@code wide} layout). The mapping's content is part of the source key: the same file through a
 * different mapping is different data.
 */
public final class CsvFormat implements SourceFormat {
  @Override
  public String name() {
    return "csv";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    return probe.hasMapping() ? Optional.of("a delimited file, read through --mapping") : Optional.empty();
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException {
    if (context.mapping() == null) {
      throw new BadInputException(paths.get(0) + ": the csv format needs --mapping FILE (JSON or YAML) saying which"
          + " column is what");
    }
    CsvMapping mapping = CsvMapping.read(context.mapping(), context.storage());
    String mappingHash = Sha256.hex(context.storage().readString(context.mappingLocation()));
    List<SourcePlan> plans = new ArrayList<>();
    for (Path path : paths) {
      List<String> head = Heads.read(path, context.storage());
      // The header is line 1; without one, the first data line gives the width (blank lines are metadata).
      int first = 0;
      while (!mapping.header() && first < head.size() && head.get(first).isBlank()) {
        first++;
      }
      if (first >= head.size()) {
        throw new BadInputException(path + ": no complete first line");
      }
      List<String> header;
      try {
        header = CsvLine.split(head.get(first), mapping.delimiterChar()).stream().map(String::trim).toList();
      } catch (IllegalArgumentException e) {
        throw new BadInputException(path + ": line " + (first + 1) + " " + RawLines.quote(head.get(first), 60) + ": "
            + e.getMessage());
      }
      Map<String, Object> metadata = new LinkedHashMap<>();
      metadata.put("mapping", context.mappingLocation().toString());
      metadata.put("layout", mapping.layout());
      RunInfo run = new RunInfo("complete", null, null, mapping.labels(), Map.of(), metadata);
      PlannedFile file;
      boolean multiRun;
      if (mapping.wide()) {
        int step = index(context.mapping(), path, header, mapping, "step", mapping.columns().step());
        List<Integer> values = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (mapping.valueColumns().isEmpty()) {
          for (int i = 0; i < header.size(); i++) {
            if (i != step) {
              values.add(i);
              names.add(header.get(i));
            }
          }
        } else {
          for (String column : mapping.valueColumns()) {
            values.add(index(context.mapping(), path, header, mapping, "value", column));
            names.add(column);
          }
        }
        file = PlannedFile.lines(path, new CsvWideParser(mapping, step, values, names, header.size()));
        multiRun = true;
      } else {
        CsvMapping.Columns c = mapping.columns();
        CsvTasksParser.Indexes idx = new CsvTasksParser.Indexes(
            optionalIndex(context.mapping(), path, header, mapping, "run", c.run()),
            optionalIndex(context.mapping(), path, header, mapping, "step", c.step()),
            index(context.mapping(), path, header, mapping, "latency", c.latency()),
            optionalIndex(context.mapping(), path, header, mapping, "timestamp", c.timestamp()),
            optionalIndex(context.mapping(), path, header, mapping, "ok", c.ok()),
            optionalIndex(context.mapping(), path, header, mapping, "error", c.error()),
            optionalIndex(context.mapping(), path, header, mapping, "client", c.client()),
            header.size());
        String constantStep = context.step() != null ? context.step() : mapping.step();
        if (idx.step() < 0 && constantStep == null) {
          throw new BadInputException(context.mapping() + ": no step: map columns.step, set step, or give --step");
        }
        file = PlannedFile.lines(path, new CsvTasksParser(mapping, idx, constantStep));
        multiRun = idx.run() >= 0;
      }
      plans.add(new SourcePlan(name(), List.of(file), null, multiRun, mappingHash, run, null, null, null));
    }
    return plans;
  }

  private static int optionalIndex(String mappingFile, Path file, List<String> header, CsvMapping mapping, String role,
      String column) {
    return column == null ? -1 : index(mappingFile, file, header, mapping, role, column);
  }

  /** The 0-based index of {@code column}: a header name, or a 1-based number without a header. */
  private static int index(String mappingFile, Path file, List<String> header, CsvMapping mapping, String role,
      String column) {
    if (!mapping.header()) {
      try {
        int number = Integer.parseInt(column.trim());
        if (number >= 1 && number <= header.size()) {
          return number - 1;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new BadInputException(mappingFile + ": column " + role + " '" + column + "' is not a column number 1.."
          + header.size() + " of " + file + " (header: false)");
    }
    int i = header.indexOf(column);
    if (i < 0) {
      throw new BadInputException(mappingFile + ": column " + role + " '" + column + "' is not in the header of " + file
          + " (its columns: " + String.join(", ", header) + ")");
    }
    return i;
  }
}
