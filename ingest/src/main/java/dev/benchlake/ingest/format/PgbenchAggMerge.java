package dev.benchlake.ingest.format;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.pow;
import static org.apache.spark.sql.functions.sqrt;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import dev.benchlake.ingest.parse.ParsedRows;
import dev.benchlake.warehouse.WarehouseSchema;
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

  private static final String[] KEYS = {ParsedRows.SOURCE, ParsedRows.RUN_PART, WarehouseSchema.STEP,
      WarehouseSchema.INTERVAL_START_S, WarehouseSchema.INTERVAL_S};

  private PgbenchAggMerge() {}

  static Dataset<Row> merge(Dataset<Row> metrics) {
    Column[] keys = Arrays.stream(KEYS).map(k -> col(k)).toArray(Column[]::new);
    Dataset<Row> combined = metrics
        .groupBy(with(keys, col("metric"), col("unit")))
        .agg(expr("CASE WHEN metric LIKE '%\\_min' THEN min(value) WHEN metric LIKE '%\\_max' THEN max(value)"
                + " ELSE sum(value) END").as("value"),
            expr("CASE WHEN min(file) = max(file) THEN min(line_no) END").as("line"),
            first(col(ParsedRows.FILE)).as(ParsedRows.FILE))
        .cache();
    Dataset<Row> sums = combined.groupBy(keys).agg(
        sum(when(col("metric").equalTo("transactions"), col("value"))).as("n"),
        sum(when(col("metric").equalTo(LATENCY_SUM_US), col("value"))).as("ls"),
        sum(when(col("metric").equalTo(LATENCY_SUM2_US2), col("value"))).as("ls2"),
        sum(when(col("metric").equalTo(LAG_SUM_US), col("value"))).as("gs"),
        sum(when(col("metric").equalTo(LAG_SUM2_US2), col("value"))).as("gs2"),
        expr("min(line)").as("line"), first(col(ParsedRows.FILE)).as(ParsedRows.FILE));
    Dataset<Row> out = shape(combined.where(expr("NOT startswith(metric, '_')")), col("metric"), col("value"), col("unit"));
    Column n = col("n");
    out = out.unionByName(shape(sums.where(n.gt(0)), lit("latency_avg"), col("ls").divide(n).divide(1000), lit("ms")));
    out = out.unionByName(shape(sums.where(n.gt(0)), lit("latency_stddev"), stddev(col("ls"), col("ls2"), n), lit("ms")));
    out = out.unionByName(shape(sums.where(n.gt(0).and(col("gs").isNotNull())), lit("lag_avg"),
        col("gs").divide(n).divide(1000), lit("ms")));
    return out.unionByName(shape(sums.where(n.gt(0).and(col("gs").isNotNull())), lit("lag_stddev"),
        stddev(col("gs"), col("gs2"), n), lit("ms")));
  }

  /** Population standard deviation in ms from Σx, Σx² (µs) and n. */
  private static Column stddev(Column sumUs, Column sum2Us2, Column n) {
    return sqrt(greatest(lit(0.0), sum2Us2.divide(n).minus(pow(sumUs.divide(n), 2)))).divide(1000);
  }

  /** Rows in the ParsedRows schema (what is not an aggregate's is null). */
  private static Dataset<Row> shape(Dataset<Row> rows, Column metric, Column value, Column unit) {
    Column[] out = Arrays.stream(ParsedRows.SCHEMA.fieldNames()).map(name -> switch (name) {
      case WarehouseSchema.METRIC -> metric.as(name);
      case WarehouseSchema.VALUE -> value.cast("double").as(name);
      case WarehouseSchema.UNIT -> unit.as(name);
      case ParsedRows.LINE_NO -> col("line").as(ParsedRows.LINE_NO);
      case ParsedRows.KIND -> lit(ParsedRows.METRIC).as(name);
      // Lines were counted before the merge; merged rows stand for no line of their own.
      case ParsedRows.FIRST_OF_LINE -> lit(false).as(name);
      case ParsedRows.N_LINES -> lit(0L).as(name);
      case ParsedRows.SOURCE, ParsedRows.FILE, ParsedRows.RUN_PART, WarehouseSchema.STEP, WarehouseSchema.INTERVAL_START_S,
          WarehouseSchema.INTERVAL_S -> col(name);
      default -> lit(null).cast(ParsedRows.SCHEMA.apply(name).dataType()).as(name);
    }).toArray(Column[]::new);
    return rows.select(out);
  }

  private static Column[] with(Column[] a, Column... b) {
    Column[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
