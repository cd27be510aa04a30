package dev.benchlake.warehouse;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Builds on a {@link WarehouseSchema} table instead of repeating its columns: a writer names only
 * the columns it derives, every other one passes through under its own name. A column added to the
 * schema then reaches every writer (or fails it loudly), instead of being forgotten in a copy.
 */
public final class SchemaColumns {
  private SchemaColumns() {}

  /**
   * The columns of {@code table}, in its order: {@code derived.get(name)} where given, else the
   * input column of the same name.
   *
   * @throws IllegalArgumentException when {@code derived} names a column {@code table} lacks (a typo)
   */
  public static Column[] select(StructType table, Map<String, Column> derived) {
    requireColumns(table, derived.keySet());
    List<Column> out = new ArrayList<>();
    for (StructField f : table.fields()) {
      Column c = derived.get(f.name());
      out.add(c == null ? col(f.name()) : c.as(f.name()));
    }
    return out.toArray(new Column[0]);
  }

  /**
   * {@code table} with some columns replaced, in place, by others (none, one or several): the
   * intermediate form of a table that a later step turns into the table itself.
   */
  public static StructType replacing(StructType table, Map<String, List<StructField>> replacements) {
    requireColumns(table, replacements.keySet());
    StructType out = new StructType();
    for (StructField f : table.fields()) {
      for (StructField g : replacements.getOrDefault(f.name(), List.of(f))) {
        out = out.add(g);
      }
    }
    return out;
  }

  /**
   * One row of {@code table} from its values by column name: a column left out is null, which a
   * non-nullable column refuses.
   */
  public static Row row(StructType table, Map<String, ?> values) {
    requireColumns(table, values.keySet());
    Object[] cells = new Object[table.fields().length];
    for (int i = 0; i < cells.length; i++) {
      StructField f = table.fields()[i];
      cells[i] = values.get(f.name());
      if (cells[i] == null && !f.nullable()) {
        throw new IllegalArgumentException("no value for " + f.name() + ", which may not be null");
      }
    }
    return RowFactory.create(cells);
  }

  private static void requireColumns(StructType table, Iterable<String> names) {
    List<String> known = List.of(table.fieldNames());
    for (String name : names) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("no column " + name + " in " + known);
      }
    }
  }
}
