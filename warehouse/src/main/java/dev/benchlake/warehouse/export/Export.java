package dev.benchlake.warehouse.export;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.map_keys;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code benchlake export}: one warehouse table, committed runs only, as one CSV, JSON Lines or Parquet
 * file for tools without a Delta reader (pandas, spreadsheets).
 *
 * <p>The rows are selected and sorted by Spark and rendered into lines on the executors
 * ({@link #lines}); {@link #write} then streams them to the driver one partition at a time
 * ({@code toLocalIterator}), in order: the driver never holds more than one partition, and the
 * result is one file rather than a folder of parts.
 */
public final class Export {
  private Export() {}

  /**
   * A header (null for JSON Lines) and the rendered lines, in export order; {@code lines} starts
   * reading when called. {@code rows} are the same rows unrendered, for Parquet ({@code columns}
   * their schema, {@code format} what scrubs their text).
   */
  public record Lines(String header, Supplier<Iterator<String>> lines, StructType columns,
      Supplier<Iterator<Row>> rows, LineFormat format) {}

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
    return new Lines(format.header(), lines::toLocalIterator, sorted.schema(), sorted::toLocalIterator, format);
  }

  /**
   * The same lines, read with Delta Kernel instead of Spark: for the small tables, where a Spark
   * session would cost far more than the read (see {@link ExportTable#smallEnoughForKernel}): the tables of a few rows per run, and tasks while small.
   */
  public static Lines lines(KernelWarehouse warehouse, ExportRequest request) {
    List<Row> selectedRuns = request.where().filter(warehouse.runs());
    List<Row> rows = request.table() == ExportTable.RUNS
        ? selectedRuns
        : warehouse.committedOnly(request.table().table(), selectedRuns);
    return render(rows, request);
  }

  /** Selects ({@code --step}), sorts, projects and renders rows as {@link #lines(Warehouse, ExportRequest)} does on Spark. */
  static Lines render(List<Row> rows, ExportRequest request) {
    List<String> columns = request.outputColumns();
    StructType schema = new StructType(columns.stream().map(c -> request.table().schema().apply(c))
        .toArray(StructField[]::new));
    List<Row> out = new ArrayList<>();
    for (Row row : rows) {
      if (request.steps().isEmpty() || request.steps().contains(row.<String>getAs(WarehouseSchema.STEP))) {
        out.add(row);
      }
    }
    out.sort(RowOrder.by(request.table().order()));
    List<Row> projected = new ArrayList<>(out.size());
    for (Row row : out) {
      projected.add(new GenericRowWithSchema(columns.stream().map(c -> row.get(row.fieldIndex(c))).toArray(), schema));
    }
    LineFormat format = new LineFormat(request.format(), schema, mapKeys(request.format(), schema, projected));
    return new Lines(format.header(), () -> projected.stream().map(format::line).iterator(), schema,
        projected::iterator, format);
  }

  /**
   * Writes the rows in {@code format} to {@code out} (left open): Parquet, or text in UTF-8.
   *
   * @return the number of rows written
   */
  public static long write(Lines lines, ExportFormat format, OutputStream out) throws IOException {
    if (format == ExportFormat.PARQUET) {
      return ParquetExport.write(lines.columns(), lines.rows().get(), lines.format(), out);
    }
    Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    return write(lines, writer);
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
    Iterator<String> it = lines.lines().get();
    while (it.hasNext()) {
      out.write(it.next());
      out.write('\n');
      rows++;
    }
    out.flush();
    return rows;
  }

  /** {@link #mapKeys(ExportFormat, Dataset)} of rows in memory. */
  private static List<String> mapKeys(ExportFormat format, StructType schema, List<Row> rows) {
    if (format != ExportFormat.CSV) {
      return List.of();
    }
    TreeSet<String> keys = new TreeSet<>(RowOrder::compareCodePoints);
    for (StructField field : schema.fields()) {
      if (field.dataType() instanceof MapType) {
        for (Row row : rows) {
          scala.collection.Map<String, ?> map = row.getMap(row.fieldIndex(field.name()));
          if (map != null) {
            keys.addAll(CollectionConverters.asJava(map.keySet()));
          }
        }
      }
    }
    return new ArrayList<>(keys);
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
