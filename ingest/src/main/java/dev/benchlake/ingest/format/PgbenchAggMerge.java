package dev.benchlake.ingest.format;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.first;

import dev.benchlake.ingest.parse.ParsedRows;
import java.util.Arrays;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Combines the aggregate-log lines of one interval from every thread's file (sums add up, minima
 * and maxima combine) and derives the final metrics: {@code latency_avg} = Σlatency / n and
 * {@code latency_stddev} = √(Σlatency²/n − avg²) (the population standard deviation, as pgbench
 * prints it), the same for the schedule lag, all in ms; the partial sums are dropped. A row's
 * {@code source_line} is the line when one file contributed, else null.
 */
final class PgbenchAggMerge {
  static final String LATENCY_SUM_US = "_latency_sum";
  static final String LATENCY_SUM2_US2 = "_latency_sum2";
  static final String LAG_SUM_US = "_lag_sum";
  static final String LAG_SUM2_US2 = "_lag_sum2";

  private static final String[] KEYS = {ParsedRows.KIND, ParsedRows.FIRST_OF_LINE, ParsedRows.SOURCE,
      ParsedRows.RUN_PART, "step", "interval_start_s", "interval_s"};

  private PgbenchAggMerge() {}

  static Dataset<Row> merge(Dataset<Row> metrics) {
    Column[] keys = Arrays.stream(KEYS).map(k -> col(k)).toArray(Column[]::new);
    Dataset<Row> combined = metrics
        .groupBy(concat(keys, col("metric"), col("unit")))
        .agg(expr("CASE WHEN metric LIKE '%\\_min' THEN min(value) WHEN metric LIKE '%\\_max' THEN max(value)"
                + " ELSE sum(value) END").as("value"),
            expr("CASE WHEN min(file) = max(file) THEN min(line_no) END").as("line"),
            first(col(ParsedRows.FILE)).as(ParsedRows.FILE));
    Dataset<Row> perInterval = combined.groupBy(keys)
        .agg(expr("map_from_arrays(collect_list(metric), collect_list(value))").as("m"),
            expr("map_from_arrays(collect_list(metric), collect_list(unit))").as("u"),
            expr("min(line)").as("line"), first(col(ParsedRows.FILE)).as(ParsedRows.FILE));
    String derived = "filter(array("
        + "struct('latency_avg' AS metric, m['" + LATENCY_SUM_US + "'] / m['transactions'] / 1000 AS value, 'ms' AS unit),"
        + "struct('latency_stddev' AS metric, sqrt(greatest(0D, m['" + LATENCY_SUM2_US2 + "'] / m['transactions']"
        + " - pow(m['" + LATENCY_SUM_US + "'] / m['transactions'], 2))) / 1000 AS value, 'ms' AS unit),"
        + "struct('lag_avg' AS metric, m['" + LAG_SUM_US + "'] / m['transactions'] / 1000 AS value, 'ms' AS unit),"
        + "struct('lag_stddev' AS metric, sqrt(greatest(0D, m['" + LAG_SUM2_US2 + "'] / m['transactions']"
        + " - pow(m['" + LAG_SUM_US + "'] / m['transactions'], 2))) / 1000 AS value, 'ms' AS unit)),"
        + " x -> x.value IS NOT NULL AND NOT isnan(x.value))";
    String kept = "transform(filter(map_keys(m), k -> NOT startswith(k, '_')), k -> struct(k AS metric, m[k] AS value, u[k] AS unit))";
    Dataset<Row> exploded = perInterval
        .select(concat(keys, expr("explode(concat(" + kept + ", " + derived + "))").as("x"), col("line"),
            col(ParsedRows.FILE)));
    Column[] out = Arrays.stream(ParsedRows.SCHEMA.fieldNames()).map(name -> switch (name) {
      case "metric" -> col("x.metric").as("metric");
      case "value" -> col("x.value").as("value");
      case "unit" -> col("x.unit").as("unit");
      case ParsedRows.LINE_NO -> col("line").as(ParsedRows.LINE_NO);
      case ParsedRows.KIND, ParsedRows.FIRST_OF_LINE, ParsedRows.SOURCE, ParsedRows.FILE, ParsedRows.RUN_PART, "step",
          "interval_start_s", "interval_s" -> col(name);
      default -> expr("CAST(NULL AS " + ParsedRows.SCHEMA.apply(name).dataType().sql() + ")").as(name);
    }).toArray(Column[]::new);
    return exploded.select(out);
  }

  private static Column[] concat(Column[] a, Column... b) {
    Column[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
