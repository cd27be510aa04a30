package dev.benchlake.warehouse.export;

import java.io.IOException;
import java.io.OutputStream;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code --format parquet}: the exported rows as one Parquet file, in their export order, with the
 * table's own types: integers exact, timestamps as microseconds since the epoch (UTC), {@code labels}
 * a Parquet MAP, {@code source_files} a LIST of structs (the standard three-level forms that pandas,
 * DuckDB and Spark read). Every column is optional, as in a Delta table's data files. The rows are
 * written from the driver as they stream in, so that the output is one file in order rather than a
 * folder of parts.
 */
final class ParquetExport {
  private ParquetExport() {}

  /** The Parquet schema of the exported columns. */
  static MessageType schema(StructType columns) {
    List<Type> fields = new ArrayList<>();
    for (StructField field : columns.fields()) {
      fields.add(type(field.name(), field.dataType()));
    }
    return new MessageType("export", fields);
  }

  private static Type type(String name, DataType type) {
    if (type instanceof StringType) {
      return Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(name);
    }
    if (type instanceof LongType) {
      return Types.optional(PrimitiveTypeName.INT64).named(name);
    }
    if (type instanceof IntegerType) {
      return Types.optional(PrimitiveTypeName.INT32).named(name);
    }
    if (type instanceof BooleanType) {
      return Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
    }
    if (type instanceof DoubleType) {
      return Types.optional(PrimitiveTypeName.DOUBLE).named(name);
    }
    if (type instanceof TimestampType) {
      return Types.optional(PrimitiveTypeName.INT64)
          .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)).named(name);
    }
    if (type instanceof MapType map) {
      return Types.optionalGroup().as(LogicalTypeAnnotation.mapType())
          .addField(Types.repeatedGroup()
              .addField(Types.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("key"))
              .addField(type("value", map.valueType())).named("key_value"))
          .named(name);
    }
    if (type instanceof ArrayType array) {
      return Types.optionalGroup().as(LogicalTypeAnnotation.listType())
          .addField(Types.repeatedGroup().addField(type("element", array.elementType())).named("list"))
          .named(name);
    }
    if (type instanceof StructType struct) {
      List<Type> fields = new ArrayList<>();
      for (StructField field : struct.fields()) {
        fields.add(type(field.name(), field.dataType()));
      }
      return new GroupType(Type.Repetition.OPTIONAL, name, fields);
    }
    throw new IllegalArgumentException("no Parquet type for column " + name + " (" + type.simpleString() + ")");
  }

  /**
   * Writes every row to {@code out} (left open), each value as {@code format} gives it (the scrubbed
   * text columns: {@link LineFormat#cell}).
   *
   * @return the number of rows written
   */
  static long write(StructType columns, Iterator<Row> rows, LineFormat format, OutputStream out) throws IOException {
    MessageType schema = schema(columns);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    long n = 0;
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new StreamOutputFile(out))
        .withConf(new Configuration(false)).withType(schema).withCompressionCodec(CompressionCodecName.SNAPPY)
        .build()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        Group group = groups.newGroup();
        StructField[] fields = columns.fields();
        for (int i = 0; i < fields.length; i++) {
          add(group, fields[i].name(), fields[i].dataType(), format.cell(row, i));
        }
        writer.write(group);
        n++;
      }
    }
    return n;
  }

  private static void add(Group group, String name, DataType type, Object value) {
    if (value == null) {
      return; // optional: absent is null
    }
    if (type instanceof StringType) {
      group.append(name, value.toString());
    } else if (type instanceof LongType) {
      group.append(name, ((Number) value).longValue());
    } else if (type instanceof IntegerType) {
      group.append(name, ((Number) value).intValue());
    } else if (type instanceof BooleanType) {
      group.append(name, (Boolean) value);
    } else if (type instanceof DoubleType) {
      group.append(name, ((Number) value).doubleValue());
    } else if (type instanceof TimestampType) {
      Instant instant = value instanceof Timestamp t ? t.toInstant() : (Instant) value;
      group.append(name, Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L),
          instant.getNano() / 1_000L));
    } else if (type instanceof MapType map) {
      Group entries = group.addGroup(name);
      // Sorted, as JSON Lines writes a map: the same warehouse always exports the same file.
      Map<String, Object> sorted = new TreeMap<>();
      CollectionConverters.asJava((scala.collection.Map<?, ?>) value).forEach((k, v) -> sorted.put(String.valueOf(k), v));
      sorted.forEach((k, v) -> {
        Group entry = entries.addGroup("key_value");
        entry.append("key", k);
        add(entry, "value", map.valueType(), v);
      });
    } else if (type instanceof ArrayType array) {
      Group list = group.addGroup(name);
      for (Object element : CollectionConverters.asJava((scala.collection.Seq<?>) value)) {
        add(list.addGroup("list"), "element", array.elementType(), element);
      }
    } else if (type instanceof StructType struct) {
      Group inner = group.addGroup(name);
      Row row = (Row) value;
      for (int i = 0; i < struct.fields().length; i++) {
        add(inner, struct.fields()[i].name(), struct.fields()[i].dataType(), row.get(i));
      }
    } else {
      throw new IllegalArgumentException("no Parquet value for column " + name + " (" + type.simpleString() + ")");
    }
  }

  /** A stream as Parquet's output file: written once, front to back (stdout or a new file). */
  private record StreamOutputFile(OutputStream out) implements OutputFile {
    @Override
    public PositionOutputStream create(long blockSizeHint) {
      return new PositionOutputStream() {
        private long position;

        @Override
        public long getPos() {
          return position;
        }

        @Override
        public void write(int b) throws IOException {
          out.write(b);
          position++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
          position += len;
        }

        @Override
        public void flush() throws IOException {
          out.flush();
        }

        @Override
        public void close() throws IOException {
          out.flush(); // the caller closes the stream
        }
      };
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
      return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
      return false;
    }

    @Override
    public long defaultBlockSize() {
      return 0;
    }
  }
}
