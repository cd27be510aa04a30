package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.warehouse.RejectType;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A mytools {@code sb.r.<metric>.<sfx>} summary, checked against the step's raw outputs (the
 * {@link MytoolsSummaryCheck.Expected} figures the driver read from them): its one line is metadata
 * when it agrees, else a reject that says what disagrees. It adds no rows of its own: the raw
 * outputs carry the measurements.
 */
final class MytoolsSummaryParser implements DocumentParser {
  private static final long serialVersionUID = 1L;
  /** What run.sh writes after the figures: {@code <engine> <testType> range=<R>}. */
  private static final Pattern LABEL = Pattern.compile("(\\S+) (\\S+) range=(\\d+)");

  private final MytoolsLayout.SummaryFile file;
  private final List<MytoolsSummaryCheck.Expected> raw;

  MytoolsSummaryParser(MytoolsLayout.SummaryFile file, List<MytoolsSummaryCheck.Expected> raw) {
    this.file = file;
    this.raw = List.copyOf(raw);
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    boolean seen = false;
    for (int i = 0; i < lines.size(); i++) {
      long lineNo = i + 1;
      String line = lines.get(i);
      if (line.isBlank()) {
        sink.metadata(lineNo);
      } else if (seen) {
        sink.reject(lineNo, line, RejectType.DUPLICATE, null, "a summary has one line: the figures of each dop, then "
            + "'<engine> <testType> range=<R>'");
      } else {
        seen = true;
        check(lineNo, line, sink);
      }
    }
  }

  private void check(long lineNo, String line, ParseSink sink) {
    String[] fields = line.split("\t", -1);
    String label = fields[fields.length - 1].trim();
    Matcher m = LABEL.matcher(label);
    if (!m.matches()) {
      sink.reject(lineNo, line, RejectType.SYNTAX, "label", "the last field is not '<engine> <testType> range=<R>': '"
          + label + "'");
      return;
    }
    Integer range = Digits.smallInt(m.group(3));
    if (range == null) {
      sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, "label", "range=" + m.group(3) + " is out of range (a range is"
          + " at most " + Integer.MAX_VALUE + ")");
      return;
    }
    if (!m.group(2).equals(file.testType()) || range != file.range()) {
      sink.reject(lineNo, line, RejectType.MISMATCH, "label", "it is labelled " + m.group(2) + " range=" + m.group(3)
          + " but its name says " + file.testType() + " range=" + file.range());
      return;
    }
    List<String> figures = Arrays.stream(fields, 0, fields.length - 1).map(String::trim).toList();
    if (figures.isEmpty()) {
      sink.reject(lineNo, line, RejectType.MISSING_VALUE, file.metric(), "no figures before the label");
      return;
    }
    for (String figure : figures) {
      Numerals.Read read = Numerals.decimal(figure);
      if (!read.ok()) {
        sink.reject(lineNo, line, read.fault(), file.metric(), file.metric() + " " + RawLines.quote(figure, 40) + " "
            + read.why());
        return;
      }
      int decimals = Numerals.decimals(figure);
      if (decimals > MytoolsSummaryCheck.MAX_DECIMALS) {
        sink.reject(lineNo, line, RejectType.OUT_OF_RANGE, file.metric(), file.metric() + " " + RawLines.quote(figure, 40)
            + " is out of range: " + (decimals == Integer.MAX_VALUE ? "more than 2147483646" : decimals)
            + " decimals; run.sh prints 0 or 3, and a double holds at most " + MytoolsSummaryCheck.MAX_DECIMALS);
        return;
      }
    }
    Optional<String> why = MytoolsSummaryCheck.disagreement(file.metric(), figures, raw);
    if (why.isPresent()) {
      sink.reject(lineNo, line, RejectType.MISMATCH, file.metric(), "disagrees with the raw sysbench output: " + why.get());
    } else {
      sink.metadata(lineNo);
    }
  }
}
