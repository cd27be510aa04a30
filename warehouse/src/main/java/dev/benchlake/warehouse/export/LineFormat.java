package dev.benchlake.warehouse.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.warehouse.WarehouseSchema;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Renders warehouse rows as lines of an {@link ExportFormat}; it runs on the executors, one row at a
 * time.
 *
 * <p>Values: text as is; integers in decimal (a {@code long} of nanoseconds stays exact, never a
 * double); doubles as Java's {@link Double#toString(double)}, the shortest text that reads back
 * to the same double ({@code NaN}, {@code Infinity}, {@code -Infinity} in CSV; strings
 * {@code "NaN"}… in JSON, which has no such numbers); booleans {@code true}/{@code false};
 * timestamps ISO-8601 in UTC with the warehouse's microsecond precision,
 * {@code 2016-03-02T03:47:09.000000Z}.
 */
public final class LineFormat implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final DateTimeFormatter ISO_UTC_MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final ObjectWriter ONE_LINE = Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * Text a tool wrote: a rejected line, the reason that may quote it, a task's error. Ingest stores
   * them redacted ({@link Redaction}); an export scrubs them again for warehouses written before it
   * did, or before it read a syntax as it does now. Not {@code metadata_json}: ingest scrubbed its
   * facts one by one, and the whole JSON text read as one would lose its paths' {@code key=…} folders.
   */
  private static final Set<String> SCRUBBED = Set.of(WarehouseSchema.RAW_LINE, WarehouseSchema.REASON, "error");

  private final ExportFormat format;
  private final StructType schema;
  private final List<String> mapKeys;

  /**
   * @param schema the exported columns, in order
   * @param mapKeys CSV only: the keys that map columns expand into ({@code labels.KEY}), sorted
   */
  public LineFormat(ExportFormat format, StructType schema, List<String> mapKeys) {
    this.format = format;
    this.schema = schema;
    this.mapKeys = List.copyOf(mapKeys);
  }

  /** The CSV header line, or null for formats without one. */
  public String header() {
    if (format != ExportFormat.CSV) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (field.dataType() instanceof MapType) {
        mapKeys.forEach(key -> names.add(field.name() + "." + key));
      } else {
        names.add(field.name());
      }
    }
    return csvLine(names);
  }

  /** One row as one line, without its line end. */
  public String line(Row row) {
    return format == ExportFormat.CSV ? csv(row) : jsonl(row);
  }

  private String csv(Row row) {
    List<String> fields = new ArrayList<>();
    StructField[] columns = schema.fields();
    for (int i = 0; i < columns.length; i++) {
      DataType type = columns[i].dataType();
      Object value = cell(row, i);
      if (type instanceof MapType) {
        Map<String, String> map = value == null ? Map.of() : textMap(value);
        mapKeys.forEach(key -> fields.add(map.get(key)));
      } else if (value == null) {
        fields.add(null);
      } else if (type instanceof ArrayType || type instanceof StructType) {
        fields.add(write(json(value, type)));
      } else {
        fields.add(scalar(value));
      }
    }
    return csvLine(fields);
  }

  private String jsonl(Row row) {
    ObjectNode node = NODES.objectNode();
    StructField[] columns = schema.fields();
    for (int i = 0; i < columns.length; i++) {
      node.set(columns[i].name(), json(cell(row, i), columns[i].dataType()));
    }
    return write(node);
  }

  /** Column {@code i} of {@code row} as every format exports it: the free-text columns scrubbed. */
  Object cell(Row row, int i) {
    Object value = row.get(i);
    return value instanceof String text && SCRUBBED.contains(schema.fields()[i].name()) ? Redaction.scrub(text) : value;
  }

  private static JsonNode json(Object value, DataType type) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (type instanceof MapType map) {
      ObjectNode node = NODES.objectNode();
      new TreeMap<>(CollectionConverters.asJava((scala.collection.Map<?, ?>) value))
          .forEach((k, v) -> node.set(String.valueOf(k), json(v, map.valueType())));
      return node;
    }
    if (type instanceof ArrayType array) {
      ArrayNode node = NODES.arrayNode();
      for (Object element : CollectionConverters.asJava((scala.collection.Seq<?>) value)) {
        node.add(json(element, array.elementType()));
      }
      return node;
    }
    if (type instanceof StructType struct) {
      Row row = (Row) value;
      ObjectNode node = NODES.objectNode();
      for (int i = 0; i < struct.fields().length; i++) {
        node.set(struct.fields()[i].name(), json(row.get(i), struct.fields()[i].dataType()));
      }
      return node;
    }
    if (type instanceof DoubleType || type instanceof FloatType) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? NODES.numberNode(d) : NODES.textNode(Double.toString(d));
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Integer n) {
      return NODES.numberNode(n);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    return NODES.textNode(type instanceof TimestampType ? timestamp(value) : value.toString());
  }

  private static String scalar(Object value) {
    if (value instanceof Timestamp || value instanceof Instant) {
      return timestamp(value);
    }
    return value.toString(); // String, Long, Integer, Boolean, and Double's shortest round-trip text
  }

  /** ISO-8601 UTC with microseconds ({@link Timestamp} by default, {@link Instant} with Spark's java8API). */
  static String timestamp(Object value) {
    Instant instant = value instanceof Timestamp t ? t.toInstant() : (Instant) value;
    return ISO_UTC_MICROS.format(instant);
  }

  private static Map<String, String> textMap(Object value) {
    Map<String, String> map = new TreeMap<>();
    CollectionConverters.asJava((scala.collection.Map<?, ?>) value)
        .forEach((k, v) -> map.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
    return map;
  }

  private static String write(JsonNode node) {
    try {
      return ONE_LINE.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** RFC 4180: a field is quoted when it holds a comma, a quote or a line break, or is the empty string. */
  static String csvLine(List<String> fields) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      String field = fields.get(i);
      if (field == null) {
        continue;
      }
      boolean quote = field.isEmpty() || field.indexOf(',') >= 0 || field.indexOf('"') >= 0
          || field.indexOf('\n') >= 0 || field.indexOf('\r') >= 0;
      if (quote) {
        line.append('"').append(field.replace("\"", "\"\"")).append('"');
      } else {
        line.append(field);
      }
    }
    return line.toString();
  }
}
