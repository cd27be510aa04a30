package dev.benchlake.ingest.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import dev.benchlake.warehouse.fs.Storage;
import org.apache.hadoop.fs.Path;

/**
 * How to read a delimited file ({@code --mapping FILE}, JSON or YAML by its extension). Two
 * layouts:
 *
 * <pre>{@code
 * layout: tasks            # one row per task (default)
 * delimiter: ","           # one character; "\t" for tabs
 * header: true             # the first line names the columns (else columns are 1-based numbers)
 * columns:
 *   run: run_id            # optional: one run per distinct value (label run=<value>)
 *   step: query            # or a constant 'step:' below, or --step
 *   latency: latency_ms    # required
 *   timestamp: ts          # optional
 *   ok: success            # optional: true/false, 1/0, yes/no, t/f, ok/error
 *   error: message         # optional: a non-empty error means failed when there is no ok column
 *   client: thread         # optional client id (an integer)
 * latency_unit: ms         # ns, us, ms or s
 * timestamp_format: iso    # iso (ISO-8601, UTC when no zone), epoch_s, epoch_ms, epoch_us
 * timestamp_is: start      # start or end of the task
 * step: point-select       # the step when there is no step column
 * labels: {os: linux}      # labels of every run of the file
 *
 * layout: wide             # a table of a metric: one row per step, one column per run
 * columns: {step: query}
 * value_columns: ["9.6", "10", "11"]   # default: every other column
 * metric: qps
 * unit: 1/s
 * column_label: db_version # each value column is a run labelled db_version=<column name>
 * }</pre>
 */
public record CsvMapping(
    String layout,
    String delimiter,
    Boolean header,
    Columns columns,
    String latencyUnit,
    String timestampFormat,
    String timestampIs,
    String step,
    Map<String, String> labels,
    List<String> valueColumns,
    String metric,
    String unit,
    String columnLabel) {

  public static final String TASKS = "tasks";
  public static final String WIDE = "wide";

  /** Column roles: header names, or 1-based numbers without a header. */
  public record Columns(String run, String step, String latency, String timestamp, String ok, String error, String client) {}

  public CsvMapping {
    layout = layout == null ? TASKS : layout.toLowerCase(Locale.ROOT);
    delimiter = delimiter == null ? "," : delimiter;
    header = header == null || header;
    columns = columns == null ? new Columns(null, null, null, null, null, null, null) : columns;
    latencyUnit = latencyUnit == null ? "ms" : latencyUnit;
    timestampFormat = timestampFormat == null ? "iso" : timestampFormat;
    timestampIs = timestampIs == null ? "start" : timestampIs;
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    valueColumns = valueColumns == null ? List.of() : List.copyOf(valueColumns);
    unit = unit == null ? "" : unit;
  }

  public boolean wide() {
    return layout.equals(WIDE);
  }

  public char delimiterChar() {
    return delimiter.equals("\\t") ? '\t' : delimiter.charAt(0);
  }

  /** Nanoseconds per unit of the latency column. */
  public double latencyNsPerUnit() {
    return switch (latencyUnit) {
      case "ns" -> 1;
      case "us", "µs" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      default -> throw new IllegalStateException(latencyUnit);
    };
  }

  /**
   * Reads and checks a mapping file.
   *
   * @throws BadInputException naming the file and what is wrong
   */
  public static CsvMapping read(String given, Storage files) throws IOException {
    Path location = Storage.location(given);
    if (!files.isFile(location)) {
      throw new BadInputException(given + ": mapping file not found");
    }
    return parse(given, location.getName(), files.readAll(location));
  }

  /**
   * Parses and checks a mapping's content (pure: no file system).
   *
   * @param file how the file is named in messages
   * @param fileName its name, whose extension says JSON or YAML
   */
  public static CsvMapping parse(String file, String fileName, byte[] content) throws IOException {
    String name = fileName.toLowerCase(Locale.ROOT);
    ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml")
        ? YAMLMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
        : JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    CsvMapping mapping;
    try {
      mapping = mapper.readValue(content, CsvMapping.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      // Parser messages span lines (a caret under the culprit): the first line and the place are enough.
      String message = e.getOriginalMessage() == null ? "unreadable" : e.getOriginalMessage().strip().lines().findFirst().orElse("");
      com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
      throw new BadInputException(file + ": not a valid mapping: " + message
          + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    }
    if (mapping == null) {
      throw new BadInputException(file + ": empty mapping");
    }
    mapping.validate(file);
    return mapping;
  }

  private void validate(String file) {
    if (!layout.equals(TASKS) && !layout.equals(WIDE)) {
      throw new BadInputException(file + ": layout '" + layout + "' is not tasks or wide");
    }
    if (!delimiter.equals("\\t") && delimiter.length() != 1) {
      throw new BadInputException(file + ": delimiter must be one character (or \\t), not '" + delimiter + "'");
    }
    if (wide()) {
      if (columns.step() == null) {
        throw new BadInputException(file + ": a wide layout needs columns.step (the column naming the steps)");
      }
      if (metric == null || metric.isBlank()) {
        throw new BadInputException(file + ": a wide layout needs metric (e.g. qps)");
      }
      if (columnLabel == null || columnLabel.isBlank()) {
        throw new BadInputException(file + ": a wide layout needs column_label (e.g. db_version)");
      }
      if (!header) {
        throw new BadInputException(file + ": a wide layout needs a header line (its column names name the runs)");
      }
      return;
    }
    if (columns.latency() == null) {
      throw new BadInputException(file + ": columns.latency is required for the tasks layout");
    }
    if (!List.of("ns", "us", "µs", "ms", "s").contains(latencyUnit)) {
      throw new BadInputException(file + ": latency_unit '" + latencyUnit + "' is not ns, us, ms or s");
    }
    if (!List.of("iso", "epoch_s", "epoch_ms", "epoch_us").contains(timestampFormat)) {
      throw new BadInputException(file + ": timestamp_format '" + timestampFormat + "' is not iso, epoch_s, epoch_ms or epoch_us");
    }
    if (!timestampIs.equals("start") && !timestampIs.equals("end")) {
      throw new BadInputException(file + ": timestamp_is '" + timestampIs + "' is not start or end");
    }
  }
}
