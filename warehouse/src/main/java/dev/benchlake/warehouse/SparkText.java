package dev.benchlake.warehouse;

import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * A value as Spark's {@code cast(... as string)} writes it, for the column types of the runs
 * table, so that a selector gives the same runs with and without a Spark session. Timestamps in
 * the session's zone, which benchlake sets to UTC: {@code 2016-03-02 03:47:09}, with the
 * microseconds after a dot only when there are any, trailing zeros dropped.
 */
final class SparkText {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private SparkText() {}

  static String cast(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Timestamp t) {
      String text = SECONDS.format(t.toInstant());
      int micros = t.getNanos() / 1000;
      if (micros == 0) {
        return text;
      }
      String fraction = String.format(Locale.ROOT, "%06d", micros).replaceAll("0+$", "");
      return text + "." + fraction;
    }
    if (value instanceof String || value instanceof Integer || value instanceof Long || value instanceof Boolean) {
      return value.toString();
    }
    throw new IllegalArgumentException("no Spark text for a " + value.getClass().getSimpleName()
        + " (a runs column of a new type: add its cast here)");
  }
}
