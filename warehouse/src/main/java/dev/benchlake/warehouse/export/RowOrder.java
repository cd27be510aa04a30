package dev.benchlake.warehouse.export;

import java.sql.Timestamp;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Row;

/**
 * Spark's sort order ({@code orderBy(col.asc_nulls_first())}) as a Java comparator, for rows
 * sorted without Spark: nulls first; strings by code point (Spark compares their UTF-8 bytes,
 * which is the same order, and not Java's UTF-16 order); doubles with {@code -0.0 = 0.0} and NaN
 * last, as Spark's {@code SQLOrderingUtil}.
 */
public final class RowOrder {
  private RowOrder() {}

  static Comparator<Row> by(List<String> columns) {
    Comparator<Row> order = (a, b) -> 0;
    for (String column : columns) {
      order = order.thenComparing((a, b) -> compare(a.get(a.fieldIndex(column)), b.get(b.fieldIndex(column))));
    }
    return order;
  }

  static int compare(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a instanceof String x) {
      return compareCodePoints(x, (String) b);
    }
    if (a instanceof Double x) {
      double y = (Double) b;
      return x == y ? 0 : Double.compare(x, y);
    }
    if (a instanceof Long x) {
      return Long.compare(x, (Long) b);
    }
    if (a instanceof Integer x) {
      return Integer.compare(x, (Integer) b);
    }
    if (a instanceof Boolean x) {
      return Boolean.compare(x, (Boolean) b);
    }
    if (a instanceof Timestamp x) {
      return x.compareTo((Timestamp) b);
    }
    throw new IllegalArgumentException("no sort order for a " + a.getClass().getSimpleName());
  }

  /** Spark's order of strings (their UTF-8 bytes): by code point. */
  public static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
