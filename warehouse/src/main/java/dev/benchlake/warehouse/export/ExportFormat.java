package dev.benchlake.warehouse.export;

import dev.benchlake.core.cli.BadInputException;

/** The file formats of {@code benchlake export}. */
public enum ExportFormat {
  /**
   * RFC 4180 CSV with a header line, {@code \n} line ends, UTF-8. An empty field is null; an empty
   * string is {@code ""}. A map column ({@code labels}) becomes one column per key,
   * {@code labels.KEY}; list and struct columns ({@code source_files}) hold their JSON text.
   */
  CSV,
  /** One JSON object per line, every column present ({@code null} where null); maps and lists nested. */
  JSONL,
  /**
   * One Apache Parquet file with the table's own types ({@link ParquetExport}): maps and lists
   * nested, timestamps in microseconds (UTC).
   */
  PARQUET;

  /** @throws BadInputException naming the formats there are */
  public static ExportFormat named(String name) {
    for (ExportFormat format : values()) {
      if (format.toString().equals(name)) {
        return format;
      }
    }
    throw new BadInputException("--format: no format '" + name + "'; the formats: csv, jsonl, parquet");
  }

  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
