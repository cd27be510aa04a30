package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.warehouse.RejectType;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of a delimited file: RFC 4180 quoting ({@code "a, b"}, {@code ""} for a quote)
 * within the line. A record is one physical line: a quoted field cannot span lines, so that every
 * reject names the line it came from.
 */
final class CsvLine {
  private CsvLine() {}

  /**
   * The fields of a data line of {@code width} fields, or null after rejecting the line (bad
   * quoting, another number of fields); a blank line is metadata and also gives null.
   */
  static List<String> fieldsOrVerdict(long lineNo, String line, char delimiter, int width, ParseSink sink) {
    if (line.isBlank()) {
      sink.metadata(lineNo);
      return null;
    }
    List<String> fields;
    try {
      fields = split(line, delimiter);
    } catch (IllegalArgumentException e) {
      sink.reject(lineNo, line, RejectType.SYNTAX, null, e.getMessage());
      return null;
    }
    if (fields.size() != width) {
      sink.reject(lineNo, line, RejectType.FIELD_COUNT, null, fields.size() + " fields where the header has " + width);
      return null;
    }
    return fields;
  }

  /** @throws IllegalArgumentException for an unterminated quote or text after a closing quote */
  static List<String> split(String line, char delimiter) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int i = 0;
    int n = line.length();
    while (true) {
      field.setLength(0);
      if (i < n && line.charAt(i) == '"') {
        i++;
        while (true) {
          if (i >= n) {
            throw new IllegalArgumentException("field " + (fields.size() + 1) + " has an unterminated quote");
          }
          char c = line.charAt(i);
          if (c == '"') {
            if (i + 1 < n && line.charAt(i + 1) == '"') {
              field.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field.append(c);
          i++;
        }
        if (i < n && line.charAt(i) != delimiter) {
          throw new IllegalArgumentException("field " + (fields.size() + 1) + " has text after its closing quote");
        }
      } else {
        int stop = line.indexOf(delimiter, i);
        if (stop < 0) {
          stop = n;
        }
        field.append(line, i, stop);
        i = stop;
      }
      fields.add(field.toString());
      if (i >= n) {
        return fields;
      }
      i++;
      if (i == n) {
        fields.add("");
        return fields;
      }
    }
  }
}
