package dev.benchlake.warehouse.kernel;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
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
 * Kernel's columnar values as the {@link Row}s Spark's {@code collect} gives for the same table:
 * columns by name in the order of the schema benchlake defines ({@code WarehouseSchema}), the
 * columns a table of an older format lacks as null, and Spark's external Java types.
 */
final class RowConverter {
  private final StructType schema;
  private final io.delta.kernel.types.StructType readSchema;
  /** Per column of {@code schema}: its ordinal in {@link #readSchema}, or -1 when the table lacks it. */
  private final int[] ordinals;

  /**
   * @param schema the table as benchlake defines it (the Spark schema of {@code WarehouseSchema})
   * @param tableSchema the table as its Delta log has it
   */
  RowConverter(StructType schema, io.delta.kernel.types.StructType tableSchema) {
    this.schema = schema;
    List<io.delta.kernel.types.StructField> read = new ArrayList<>();
    ordinals = new int[schema.fields().length];
    for (int i = 0; i < ordinals.length; i++) {
      int at = tableSchema.indexOf(schema.fields()[i].name());
      ordinals[i] = at < 0 ? -1 : read.size();
      if (at >= 0) {
        read.add(tableSchema.at(at));
      }
    }
    readSchema = new io.delta.kernel.types.StructType(read);
  }

  /** The columns to read: those of the schema the table has. */
  io.delta.kernel.types.StructType readSchema() {
    return readSchema;
  }

  Row row(ColumnarBatch batch, int rowId) {
    Object[] values = new Object[ordinals.length];
    for (int i = 0; i < values.length; i++) {
      if (ordinals[i] >= 0) {
        values[i] = value(batch.getColumnVector(ordinals[i]), rowId, schema.fields()[i].dataType());
      }
    }
    return new GenericRowWithSchema(values, schema);
  }

  /** The value at {@code rowId} as Spark's Java type for {@code type} (what {@code Row.get} returns). */
  static Object value(ColumnVector vector, int rowId, DataType type) {
    if (vector.isNullAt(rowId)) {
      return null;
    }
    if (type instanceof StringType) {
      return vector.getString(rowId);
    } else if (type instanceof LongType) {
      return vector.getLong(rowId);
    } else if (type instanceof IntegerType) {
      return vector.getInt(rowId);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(rowId);
    } else if (type instanceof BooleanType) {
      return vector.getBoolean(rowId);
    } else if (type instanceof TimestampType) {
      return timestamp(vector.getLong(rowId));
    } else if (type instanceof ArrayType array) {
      ArrayValue value = vector.getArray(rowId);
      List<Object> elements = new ArrayList<>(value.getSize());
      for (int i = 0; i < value.getSize(); i++) {
        elements.add(value(value.getElements(), i, array.elementType()));
      }
      return CollectionConverters.asScala(elements).toSeq();
    } else if (type instanceof MapType map) {
      MapValue value = vector.getMap(rowId);
      Map<Object, Object> entries = new LinkedHashMap<>();
      for (int i = 0; i < value.getSize(); i++) {
        entries.put(value(value.getKeys(), i, map.keyType()), value(value.getValues(), i, map.valueType()));
      }
      return CollectionConverters.asScala(entries);
    } else if (type instanceof StructType struct) {
      io.delta.kernel.types.StructType physical = (io.delta.kernel.types.StructType) vector.getDataType();
      Object[] values = new Object[struct.fields().length];
      for (int i = 0; i < values.length; i++) {
        StructField field = struct.fields()[i];
        int at = physical.indexOf(field.name());
        values[i] = at < 0 ? null : value(vector.getChild(at), rowId, field.dataType());
      }
      return new GenericRowWithSchema(values, struct);
    }
    throw new IllegalArgumentException("no Kernel conversion for " + type + " (add it beside the others)");
  }

  /**
   * Delta's microseconds since the epoch (UTC) as the {@link Timestamp} Spark returns. (Spark
   * rebases dates before 1582 to the Julian calendar; no benchmark ran then.)
   */
  static Timestamp timestamp(long micros) {
    Timestamp t = new Timestamp(Math.floorDiv(micros, 1000L));
    t.setNanos((int) Math.floorMod(micros, 1_000_000L) * 1000);
    return t;
  }
}
