package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.warehouse.RejectType;
import java.util.List;

/**
 * One line of a wide table (the {@code wide} layout of a {@link CsvMapping}): a step and one value
 * per run column, e.g. relative QPS per PostgreSQL version. Each value becomes a whole-run
 * {@code step_metrics} row of the run named by its column; an empty cell is a missing
 * measurement and produces no row.
 */
final class CsvWideParser implements LineParser {
  private static final long serialVersionUID = 1L;

  private final char delimiter;
  private final int stepIndex;
  private final List<Integer> valueIndexes;
  private final List<String> runNames;
  private final int width;
  private final String metric;
  private final String unit;
  private final String columnLabel;

  CsvWideParser(CsvMapping mapping, int stepIndex, List<Integer> valueIndexes, List<String> runNames, int width) {
    this.delimiter = mapping.delimiterChar();
    this.stepIndex = stepIndex;
    this.valueIndexes = List.copyOf(valueIndexes);
    this.runNames = List.copyOf(runNames);
    this.width = width;
    this.metric = mapping.metric();
    this.unit = mapping.unit();
    this.columnLabel = mapping.columnLabel();
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(long lineNo, String line, ParseSink sink) {
    if (lineNo == 1) {
      sink.fact("", "run_label", columnLabel);
      sink.metadata(lineNo);
      return;
    }
    List<String> f = CsvLine.fieldsOrVerdict(lineNo, line, delimiter, width, sink);
    if (f == null) {
      return;
    }
    String step = f.get(stepIndex).trim();
    if (step.isEmpty()) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, "step", "the step is empty");
      return;
    }
    double[] values = new double[valueIndexes.size()];
    boolean[] present = new boolean[valueIndexes.size()];
    int count = 0;
    for (int i = 0; i < valueIndexes.size(); i++) {
      String cell = f.get(valueIndexes.get(i)).trim();
      if (cell.isEmpty()) {
        continue;
      }
      Numerals.Read read = Numerals.decimal(cell.endsWith("%") ? cell.substring(0, cell.length() - 1) : cell);
      if (read.fault() == RejectType.NUMBER_FORMAT) {
        sink.reject(lineNo, line, RejectType.NUMBER_FORMAT, runNames.get(i),
            "column '" + runNames.get(i) + "' is not a number: '" + cell + "'");
        return;
      }
      if (!read.ok()) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, runNames.get(i),
            "column '" + runNames.get(i) + "' " + read.why() + ": '" + cell + "'");
        return;
      }
      values[i] = read.value();
      present[i] = true;
      count++;
    }
    if (count == 0) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, null, "no value in any column");
      return;
    }
    for (int i = 0; i < values.length; i++) {
      if (present[i]) {
        sink.metric(lineNo, new ParsedMetric(runNames.get(i), step, null, null, metric, values[i], unit, null));
      }
    }
  }
}
