package dev.benchlake.ingest.parse;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.ByteType;
import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import dev.benchlake.warehouse.RejectType;
import dev.benchlake.warehouse.SchemaColumns;
import dev.benchlake.warehouse.WarehouseSchema;
import java.util.List;
import java.util.Map;
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
  public static final String FACT_KEY = "metric";
  public static final String FACT_VALUE = "reason";
  /** How many lines the row stands for: 1 on the first row of a line's verdict, else 0. */
  public static final String N_LINES = "n_lines";
  public static final String N_FAILED = "n_failed";

  public static final StructType SCHEMA = new StructType()
      .add(KIND, ByteType, false)
      .add(FIRST_OF_LINE, BooleanType, false)
      .add(N_LINES, LongType, false)
      .add(N_FAILED, LongType, true)
      .add(SOURCE, IntegerType, false)
      .add(FILE, IntegerType, false)
      .add(LINE_NO, LongType, false)
      .add(RUN_PART, StringType, false)
      .add("step", StringType, true)
      .add(START_US, LongType, true)
      .add(END_US, LongType, true)
      .add("interval_start_s", DoubleType, true)
      .add("interval_s", DoubleType, true)
      .add("metric", StringType, true)
      .add("value", DoubleType, true)
      .add("unit", StringType, true)
      .add("bucket", DoubleType, true)
      .add("raw_line", StringType, true)
      .add("reason", StringType, true)
      .add(WarehouseSchema.ERROR_TYPE, StringType, true)
      .add(WarehouseSchema.COLUMN, StringType, true)
      .add(WarehouseSchema.HEALTH_BEFORE, WarehouseSchema.tableHealth(), true)
      .add(WarehouseSchema.HEALTH_AFTER, WarehouseSchema.tableHealth(), true)
      .add(WarehouseSchema.TABLES_AUTOVACUUMED, IntegerType, true)
      .add(WarehouseSchema.TABLES_AUTOANALYZED, IntegerType, true)
      .add(WarehouseSchema.BETWEEN_STEPS, StringType, true);

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

  /** The table health cells of a row that is not a step's table health: all null. */
  private static final Object[] NO_HEALTH = new Object[5];

  static Row task(int source, long lineNo, ParsedTask t) {
    return RowFactory.create(source, t.runPart(), t.step(), t.clientId(), t.seq(), t.startEpochUs(), t.endEpochUs(),
        t.latencyNs(), t.serviceNs(), t.waitNs(), t.warmup(), t.ok(), emptyToNull(t.sqlstate()),
        emptyToNull(t.error()), lineNo);
  }

  static Row taskSummary(int source, int file, String runPart, long tasks, long failed, Long minStartUs, Long maxEndUs) {
    return RowFactory.create(TASK_SUMMARY, false, tasks, failed, source, file, 0L, runPart,
        null, minStartUs, maxEndUs, null, null, null, null, null, null, null, null, null, null, NO_HEALTH[0], NO_HEALTH[1],
        NO_HEALTH[2], NO_HEALTH[3], NO_HEALTH[4]);
  }

  static Row metric(int source, int file, long lineNo, boolean first, ParsedMetric m) {
    ParsedMetric.Health h = m.health();
    return RowFactory.create(METRIC, first, first ? 1L : 0L, null, source, file, lineNo, m.runPart(),
        m.step(), null, null, m.intervalStartS(), m.intervalS(), m.metric(), m.value(), m.unit(), m.bucket(), null, null,
        null, null, h == null ? null : h.before(), h == null ? null : h.after(), h == null ? null : h.tablesAutovacuumed(),
        h == null ? null : h.tablesAutoanalyzed(), h == null ? null : h.betweenSteps());
  }

  static Row reject(int source, int file, long lineNo, String raw, RejectType type, String column, String reason) {
    return RowFactory.create(REJECT, true, 1L, null, source, file, lineNo, "",
        null, null, null, null, null, null, null, null, null, RawLines.truncate(raw),
        RawLines.truncate(reason), type.sqlName(), column == null ? null : RawLines.truncate(column), NO_HEALTH[0],
        NO_HEALTH[1], NO_HEALTH[2], NO_HEALTH[3], NO_HEALTH[4]);
  }

  static Row metadata(int source, int file, long lineNo) {
    return RowFactory.create(METADATA, true, 1L, null, source, file, lineNo, "",
        null, null, null, null, null, null, null, null, null, null, null, null, null, NO_HEALTH[0], NO_HEALTH[1],
        NO_HEALTH[2], NO_HEALTH[3], NO_HEALTH[4]);
  }

  /** {@code lines} metadata lines of a chunk (the one pass counts them rather than keeping a row each). */
  static Row metadataLines(int source, int file, long lines) {
    return RowFactory.create(METADATA, true, lines, null, source, file, 0L, "",
        null, null, null, null, null, null, null, null, null, null, null, null, null, NO_HEALTH[0], NO_HEALTH[1],
        NO_HEALTH[2], NO_HEALTH[3], NO_HEALTH[4]);
  }

  static Row fact(int source, int file, String runPart, String key, String value) {
    return RowFactory.create(FACT, false, 0L, null, source, file, 0L, runPart == null ? "" : runPart,
        null, null, null, null, null, key, null, null, null, null, value, null, null, NO_HEALTH[0], NO_HEALTH[1],
        NO_HEALTH[2], NO_HEALTH[3], NO_HEALTH[4]);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
