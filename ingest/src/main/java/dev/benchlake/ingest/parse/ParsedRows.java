package dev.benchlake.ingest.parse;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.ByteType;
import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;

/**
 * The one intermediate table of an ingest: every verdict of every line as one row, tagged with its
 * {@link #KIND}. Parsing writes it once (cached); the warehouse tables, the per-file accounting
 * and the run facts are all selected from it, so no file is parsed twice.
 */
public final class ParsedRows {
  private ParsedRows() {}

  public static final byte TASK = 0;
  public static final byte METRIC = 1;
  public static final byte REJECT = 2;
  public static final byte METADATA = 3;
  /** A run fact: {@link #FACT_KEY} and {@link #FACT_VALUE}; not a line verdict. */
  public static final byte FACT = 4;

  public static final String KIND = "kind";
  /** True on the first row of a line's verdict: counting these counts lines. */
  public static final String FIRST_OF_LINE = "first_of_line";
  public static final String SOURCE = "source";
  public static final String FILE = "file";
  public static final String LINE_NO = "line_no";
  public static final String RUN_PART = "run_part";
  public static final String START_US = "start_us";
  public static final String END_US = "end_us";
  public static final String FACT_KEY = "metric";
  public static final String FACT_VALUE = "reason";

  public static final StructType SCHEMA = new StructType()
      .add(KIND, ByteType, false)
      .add(FIRST_OF_LINE, BooleanType, false)
      .add(SOURCE, IntegerType, false)
      .add(FILE, IntegerType, false)
      .add(LINE_NO, LongType, false)
      .add(RUN_PART, StringType, false)
      .add("step", StringType, true)
      .add("client_id", IntegerType, true)
      .add("seq", LongType, true)
      .add(START_US, LongType, true)
      .add(END_US, LongType, true)
      .add("latency_ns", LongType, true)
      .add("service_ns", LongType, true)
      .add("wait_ns", LongType, true)
      .add("warmup", BooleanType, true)
      .add("ok", BooleanType, true)
      .add("sqlstate", StringType, true)
      .add("error", StringType, true)
      .add("interval_start_s", DoubleType, true)
      .add("interval_s", DoubleType, true)
      .add("metric", StringType, true)
      .add("value", DoubleType, true)
      .add("unit", StringType, true)
      .add("bucket", DoubleType, true)
      .add("raw_line", StringType, true)
      .add("reason", StringType, true);

  static Row task(int source, int file, long lineNo, boolean first, ParsedTask t) {
    return RowFactory.create(TASK, first, source, file, lineNo, t.runPart(),
        t.step(), t.clientId(), t.seq(), t.startEpochUs(), t.endEpochUs(), t.latencyNs(), t.serviceNs(), t.waitNs(),
        t.warmup(), t.ok(), emptyToNull(t.sqlstate()), emptyToNull(t.error()),
        null, null, null, null, null, null, null, null);
  }

  static Row metric(int source, int file, long lineNo, boolean first, ParsedMetric m) {
    return RowFactory.create(METRIC, first, source, file, lineNo, m.runPart(),
        m.step(), null, null, null, null, null, null, null, null, null, null, null,
        m.intervalStartS(), m.intervalS(), m.metric(), m.value(), m.unit(), m.bucket(), null, null);
  }

  static Row reject(int source, int file, long lineNo, String raw, String reason) {
    return RowFactory.create(REJECT, true, source, file, lineNo, "",
        null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, RawLines.truncate(raw), reason);
  }

  static Row metadata(int source, int file, long lineNo) {
    return RowFactory.create(METADATA, true, source, file, lineNo, "",
        null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null, null);
  }

  static Row fact(int source, int file, String runPart, String key, String value) {
    return RowFactory.create(FACT, false, source, file, 0L, runPart == null ? "" : runPart,
        null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, key, null, null, null, null, value);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
