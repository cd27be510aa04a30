package dev.benchlake.ingest.parse;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.ByteType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.warehouse.RejectType;
import dev.benchlake.warehouse.SchemaColumns;
import dev.benchlake.warehouse.WarehouseSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The two intermediate tables of an ingest's one pass.
 *
 * <p>{@link #SCHEMA}: every verdict that is not a task as one row tagged with its {@link #KIND}
 * (metrics, rejects, metadata lines, run facts), and per chunk and run part one
 * {@link #TASK_SUMMARY} row counting its tasks. It is small next to the input (tasks are counted,
 * not kept), comes back to the driver beside the written tasks ({@link ChunkAccounts}), and gives
 * the per-file accounting, the validation, the step_metrics and the rejects. (The one pass counts
 * a chunk's metadata lines in one row; the accounting pass alone, run again for chunks whose
 * accounting is too big to bring back, keeps a row per line.)
 *
 * <p>{@link #TASK_SCHEMA}: the tasks, written straight into uncommitted data files of the tasks
 * table without being cached, so a multi-GB log streams through.
 */
public final class ParsedRows {
  private ParsedRows() {}

  public static final byte TASK = 0;
  public static final byte METRIC = 1;
  public static final byte REJECT = 2;
  public static final byte METADATA = 3;
  /** A run fact: {@link #FACT_KEY} and {@link #FACT_VALUE}; not a line verdict. */
  public static final byte FACT = 4;
  /**
   * The tasks of one chunk and run part: {@link #N_LINES} tasks (one per line), {@link #N_FAILED}
   * of them failed, {@link #START_US} the earliest start (or end), {@link #END_US} the latest end.
   */
  public static final byte TASK_SUMMARY = 5;

  public static final String KIND = "kind";
  /** True on the first row of a line's verdict: counting these counts lines. */
  public static final String FIRST_OF_LINE = "first_of_line";
  public static final String SOURCE = "source";
  public static final String FILE = "file";
  public static final String LINE_NO = "line_no";
  public static final String RUN_PART = "run_part";
  public static final String START_US = "start_us";
  public static final String END_US = "end_us";
  /** A fact's key and value ride in the metric and reason columns. */
  public static final String FACT_KEY = WarehouseSchema.METRIC;
  public static final String FACT_VALUE = WarehouseSchema.REASON;
  /** How many lines the row stands for: 1 on the first row of a line's verdict, else 0. */
  public static final String N_LINES = "n_lines";
  public static final String N_FAILED = "n_failed";

  /**
   * The pass's own columns, then the step_metrics and the rejects columns the pass carries, each
   * as {@link WarehouseSchema} defines it (one definition of each column) but nullable: a row of
   * one kind has none of the others' (the warehouse's {@code source_line}, {@code run_id} and a
   * reject's {@code source_file} are {@link #LINE_NO}, {@link #SOURCE}/{@link #RUN_PART} and
   * {@link #FILE} here).
   */
  public static final StructType SCHEMA = withColumns(new StructType()
      .add(KIND, ByteType, false)
      .add(FIRST_OF_LINE, BooleanType, false)
      .add(N_LINES, LongType, false)
      .add(N_FAILED, LongType, true)
      .add(SOURCE, IntegerType, false)
      .add(FILE, IntegerType, false)
      .add(LINE_NO, LongType, false)
      .add(RUN_PART, StringType, false)
      .add(START_US, LongType, true)
      .add(END_US, LongType, true),
      WarehouseSchema.STEP_METRICS, Set.of(WarehouseSchema.RUN_ID, WarehouseSchema.SOURCE_LINE),
      WarehouseSchema.REJECTS, Set.of(WarehouseSchema.RUN_ID, WarehouseSchema.REJECT_SOURCE_FILE, LINE_NO));

  private static StructType withColumns(StructType own, StructType metrics, Set<String> notMetrics, StructType rejects,
      Set<String> notRejects) {
    StructType out = own;
    for (StructField f : metrics.fields()) {
      if (!notMetrics.contains(f.name())) {
        out = out.add(f.name(), f.dataType(), true);
      }
    }
    for (StructField f : rejects.fields()) {
      if (!notRejects.contains(f.name())) {
        out = out.add(f.name(), f.dataType(), true);
      }
    }
    return out;
  }

  // Positions in SCHEMA: the rows below are built by position, without a schema.
  private static final int AT_KIND = SCHEMA.fieldIndex(KIND);
  private static final int AT_FIRST_OF_LINE = SCHEMA.fieldIndex(FIRST_OF_LINE);
  private static final int AT_N_LINES = SCHEMA.fieldIndex(N_LINES);
  private static final int AT_N_FAILED = SCHEMA.fieldIndex(N_FAILED);
  private static final int AT_SOURCE = SCHEMA.fieldIndex(SOURCE);
  private static final int AT_FILE = SCHEMA.fieldIndex(FILE);
  private static final int AT_LINE_NO = SCHEMA.fieldIndex(LINE_NO);
  private static final int AT_RUN_PART = SCHEMA.fieldIndex(RUN_PART);
  private static final int AT_START_US = SCHEMA.fieldIndex(START_US);
  private static final int AT_END_US = SCHEMA.fieldIndex(END_US);
  private static final int AT_STEP = SCHEMA.fieldIndex(WarehouseSchema.STEP);
  private static final int AT_INTERVAL_START_S = SCHEMA.fieldIndex(WarehouseSchema.INTERVAL_START_S);
  private static final int AT_INTERVAL_S = SCHEMA.fieldIndex(WarehouseSchema.INTERVAL_S);
  private static final int AT_METRIC = SCHEMA.fieldIndex(WarehouseSchema.METRIC);
  private static final int AT_VALUE = SCHEMA.fieldIndex(WarehouseSchema.VALUE);
  private static final int AT_UNIT = SCHEMA.fieldIndex(WarehouseSchema.UNIT);
  private static final int AT_BUCKET = SCHEMA.fieldIndex(WarehouseSchema.BUCKET);
  private static final int AT_RAW_LINE = SCHEMA.fieldIndex(WarehouseSchema.RAW_LINE);
  private static final int AT_REASON = SCHEMA.fieldIndex(WarehouseSchema.REASON);
  private static final int AT_ERROR_TYPE = SCHEMA.fieldIndex(WarehouseSchema.ERROR_TYPE);
  private static final int AT_COLUMN = SCHEMA.fieldIndex(WarehouseSchema.COLUMN);
  private static final int AT_FACT_KEY = SCHEMA.fieldIndex(FACT_KEY);
  private static final int AT_FACT_VALUE = SCHEMA.fieldIndex(FACT_VALUE);
  private static final int AT_HEALTH_BEFORE = SCHEMA.fieldIndex(WarehouseSchema.HEALTH_BEFORE);
  private static final int AT_HEALTH_AFTER = SCHEMA.fieldIndex(WarehouseSchema.HEALTH_AFTER);
  private static final int AT_TABLES_AUTOVACUUMED = SCHEMA.fieldIndex(WarehouseSchema.TABLES_AUTOVACUUMED);
  private static final int AT_TABLES_AUTOANALYZED = SCHEMA.fieldIndex(WarehouseSchema.TABLES_AUTOANALYZED);
  private static final int AT_BETWEEN_STEPS = SCHEMA.fieldIndex(WarehouseSchema.BETWEEN_STEPS);

  /**
   * The tasks of the second pass: {@code WarehouseSchema.TASKS} but with the source and run part
   * instead of the run id, times as epoch microseconds, and the line number.
   */
  public static final StructType TASK_SCHEMA = SchemaColumns.replacing(WarehouseSchema.TASKS, Map.of(
      WarehouseSchema.RUN_ID, List.of(
          new StructField(SOURCE, IntegerType, false, Metadata.empty()),
          new StructField(RUN_PART, StringType, false, Metadata.empty())),
      WarehouseSchema.START_TS, List.of(new StructField(START_US, LongType, true, Metadata.empty())),
      WarehouseSchema.END_TS, List.of(new StructField(END_US, LongType, true, Metadata.empty())),
      WarehouseSchema.SOURCE_LINE, List.of(new StructField(LINE_NO, LongType, false, Metadata.empty()))));

  static Row task(int source, long lineNo, ParsedTask t) {
    return RowFactory.create(source, t.runPart(), t.step(), t.clientId(), t.seq(), t.startEpochUs(), t.endEpochUs(),
        t.latencyNs(), t.serviceNs(), t.waitNs(), t.warmup(), t.ok(), emptyToNull(t.sqlstate()),
        emptyToNull(Redaction.scrub(t.error())), lineNo);
  }

  /** The cells every row has; the others null. */
  private static Object[] cells(byte kind, boolean first, long lines, int source, int file, long lineNo, String runPart) {
    Object[] c = new Object[SCHEMA.size()];
    c[AT_KIND] = kind;
    c[AT_FIRST_OF_LINE] = first;
    c[AT_N_LINES] = lines;
    c[AT_SOURCE] = source;
    c[AT_FILE] = file;
    c[AT_LINE_NO] = lineNo;
    c[AT_RUN_PART] = runPart;
    return c;
  }

  static Row taskSummary(int source, int file, String runPart, long tasks, long failed, Long minStartUs, Long maxEndUs) {
    Object[] c = cells(TASK_SUMMARY, false, tasks, source, file, 0L, runPart);
    c[AT_N_FAILED] = failed;
    c[AT_START_US] = minStartUs;
    c[AT_END_US] = maxEndUs;
    return RowFactory.create(c);
  }

  static Row metric(int source, int file, long lineNo, boolean first, ParsedMetric m) {
    Object[] c = cells(METRIC, first, first ? 1L : 0L, source, file, lineNo, m.runPart());
    c[AT_STEP] = m.step();
    c[AT_INTERVAL_START_S] = m.intervalStartS();
    c[AT_INTERVAL_S] = m.intervalS();
    c[AT_METRIC] = m.metric();
    c[AT_VALUE] = m.value();
    c[AT_UNIT] = m.unit();
    c[AT_BUCKET] = m.bucket();
    ParsedMetric.Health h = m.health();
    if (h != null) {
      c[AT_HEALTH_BEFORE] = h.before();
      c[AT_HEALTH_AFTER] = h.after();
      c[AT_TABLES_AUTOVACUUMED] = h.tablesAutovacuumed();
      c[AT_TABLES_AUTOANALYZED] = h.tablesAutoanalyzed();
      c[AT_BETWEEN_STEPS] = h.betweenSteps();
    }
    return RowFactory.create(c);
  }

  /**
   * The one place where a reject row is made, so the one place where its text is scrubbed: a
   * rejected line may be a tool's echoed command line with its password ({@code --pgsql-password=…}),
   * and the reason may quote it. The line is stored redacted ({@link Redaction}); it still counts as
   * one rejected line, so the accounting stays exact.
   */
  static Row reject(int source, int file, long lineNo, String raw, RejectType type, String column, String reason) {
    Object[] c = cells(REJECT, true, 1L, source, file, lineNo, "");
    c[AT_RAW_LINE] = RawLines.truncate(Redaction.scrub(raw));
    c[AT_REASON] = RawLines.truncate(Redaction.scrub(reason));
    c[AT_ERROR_TYPE] = type.sqlName();
    c[AT_COLUMN] = column == null ? null : RawLines.truncate(column);
    return RowFactory.create(c);
  }

  static Row metadata(int source, int file, long lineNo) {
    return RowFactory.create(cells(METADATA, true, 1L, source, file, lineNo, ""));
  }

  /** {@code lines} metadata lines of a chunk (the one pass counts them rather than keeping a row each). */
  static Row metadataLines(int source, int file, long lines) {
    return RowFactory.create(cells(METADATA, true, lines, source, file, 0L, ""));
  }

  /** A fact about the run ({@code runs.metadata_json}): a value named as a secret, or holding one, is redacted. */
  static Row fact(int source, int file, String runPart, String key, String value) {
    Object[] c = cells(FACT, false, 0L, source, file, 0L, runPart == null ? "" : runPart);
    c[AT_FACT_KEY] = key;
    c[AT_FACT_VALUE] = Redaction.value(key, value);
    return RowFactory.create(c);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
