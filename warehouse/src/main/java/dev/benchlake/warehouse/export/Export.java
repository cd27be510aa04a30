package dev.benchlake.warehouse.export;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.map_keys;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import java.io.IOException;
import java.io.Writer;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;

/**
 * {@code benchlake export}: one warehouse table, committed runs only, as one CSV or JSON Lines file
 * for tools without a Delta reader (pandas, spreadsheets).
 *
 * <p>The rows are selected and sorted by Spark and rendered into lines on the executors
 * ({@link #lines}); {@link #write} then streams them to the driver one partition at a time
 * ({@code toLocalIterator}), in order: the driver never holds more than one partition, and the
 * result is one file rather than a folder of parts.
 */
public final class Export {
  private Export() {}

  /** A header (null for JSON Lines) and the rendered lines, in export order. */
  public record Lines(String header, Dataset<String> lines) {}

  /** The rows {@code request} selects, sorted and rendered; nothing runs until they are read. */
  public static Lines lines(Warehouse warehouse, ExportRequest request) {
    Dataset<Row> selectedRuns = request.where().apply(warehouse.runs());
    Dataset<Row> rows = request.table() == ExportTable.RUNS
        ? selectedRuns
        : warehouse.committedOnly(request.table().table(), selectedRuns);
    if (!request.steps().isEmpty()) {
      rows = rows.where(col(WarehouseSchema.STEP).isin(request.steps().toArray()));
    }
    Column[] order = request.table().order().stream().map(c -> col(c).asc_nulls_first()).toArray(Column[]::new);
    Dataset<Row> sorted = rows.orderBy(order)
        .select(request.outputColumns().stream().map(c -> col(c)).toArray(Column[]::new));
    LineFormat format = new LineFormat(request.format(), sorted.schema(), mapKeys(request.format(), sorted));
    Dataset<String> lines = sorted.map((MapFunction<Row, String>) format::line, Encoders.STRING());
    return new Lines(format.header(), lines);
  }

  /**
   * Writes the header and every line, each ended by {@code \n}.
   *
   * @return the number of rows written
   */
  public static long write(Lines lines, Writer out) throws IOException {
    if (lines.header() != null) {
      out.write(lines.header());
      out.write('\n');
    }
    long rows = 0;
    Iterator<String> it = lines.lines().toLocalIterator();
    while (it.hasNext()) {
      out.write(it.next());
      out.write('\n');
      rows++;
    }
    out.flush();
    return rows;
  }

  /** CSV flattens map columns into one column per key: the keys present in the exported rows, sorted. */
  private static List<String> mapKeys(ExportFormat format, Dataset<Row> rows) {
    if (format != ExportFormat.CSV) {
      return List.of();
    }
    List<String> maps = java.util.Arrays.stream(rows.schema().fields())
        .filter(f -> f.dataType() instanceof MapType).map(StructField::name).toList();
    if (maps.isEmpty()) {
      return List.of();
    }
    Column keys = maps.stream().map(m -> map_keys(col(m)))
        .reduce(org.apache.spark.sql.functions::array_union).orElseThrow();
    return rows.select(explode(keys).as("key")).distinct().orderBy("key").as(Encoders.STRING()).collectAsList();
  }
}
