package dev.benchlake.warehouse;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.TimestampType;

import dev.benchlake.core.Labels;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The one definition of the warehouse tables. Every writer builds rows against these schemas and
 * every reader can rely on them; Delta rejects a write whose schema differs.
 *
 * <p>Units are in the column names. Times of day are UTC {@code timestamp}s.
 */
public final class WarehouseSchema {
  private WarehouseSchema() {}

  // Column names used across modules.
  public static final String RUN_ID = "run_id";
  public static final String STEP = "step";
  public static final String LABELS = "labels";
  public static final String OK = "ok";
  public static final String WARMUP = "warmup";
  public static final String LATENCY_NS = "latency_ns";
  public static final String SOURCE_KEY = "source_key";
  public static final String START_TS = "start_ts";
  public static final String END_TS = "end_ts";
  public static final String SOURCE_LINE = "source_line";
  public static final String REJECT_SOURCE_FILE = "source_file";
  public static final String ERROR_TYPE = "error_type";
  public static final String COLUMN = "column";
  public static final String RAW_LINE = "raw_line";
  public static final String REASON = "reason";
  public static final String SERVER_START = "server_start";
  public static final String STARTED_AT = "started_at";
  public static final String TASKS_ACCEPTED = "tasks_accepted";
  public static final String STEP_METRICS_ROWS = "step_metrics_rows";
  public static final String LINES_REJECTED = "lines_rejected";
  /** step_metrics' columns that readers select on. */
  public static final String INTERVAL_START_S = "interval_start_s";
  public static final String INTERVAL_S = "interval_s";
  public static final String METRIC = "metric";
  public static final String VALUE = "value";
  public static final String UNIT = "unit";
  public static final String BUCKET = "bucket";

  /**
   * One file an ingest read: where it was, its content hash and size. The fields are never null,
   * but are declared nullable: Delta refuses NOT NULL constraints nested in arrays.
   */
  public static final StructType SOURCE_FILE = new StructType()
      .add("path", StringType, true)
      .add("sha256", StringType, true)
      .add("bytes", LongType, true);

  /**
   * One row per run. {@code source_key} (sha256 over the sorted content hashes of the run's source
   * files) is what makes ingest idempotent. The dimension columns ({@code os} … {@code host}) are
   * lifted from the labels ({@link Labels#DIMENSIONS}, in that order) (and from the source where it knows them, e.g. a loadgen manifest).
   * A run is visible to readers only once its row is here: this table is the commit point.
   *
   * <p>{@code server_start} (format 2) is {@code "<postmaster_start_time>|<data_directory>"} as
   * loadgen's manifest gives it ({@code target.server_start}); null = not recorded (a run of an
   * older loadgen, a third-party source, or a warehouse of format 1). Columns added after format 1
   * come last, in the order they were added: an upgraded table gets them at the end too
   * ({@code write.WarehouseUpgrade}), so old and new warehouses have the same column order.
   */
  public static final StructType RUNS = new StructType()
      .add(RUN_ID, StringType, false)
      .add("source_format", StringType, false)
      .add(SOURCE_KEY, StringType, false)
      .add("source_files", DataTypes.createArrayType(SOURCE_FILE, false), false)
      .add(LABELS, DataTypes.createMapType(StringType, StringType, false), false)
      .add(Labels.OS, StringType, true)
      .add(Labels.DB_VERSION, StringType, true)
      .add(Labels.DB_MAJOR, IntegerType, true)
      .add(Labels.WORKLOAD, StringType, true)
      .add(Labels.CLIENTS, IntegerType, true)
      .add(Labels.HOST, StringType, true)
      .add("status", StringType, false)
      .add(STARTED_AT, TimestampType, true)
      .add("finished_at", TimestampType, true)
      .add(TASKS_ACCEPTED, LongType, false)
      .add(STEP_METRICS_ROWS, LongType, false)
      .add(LINES_REJECTED, LongType, false)
      .add("metadata_json", StringType, true)
      .add("ingested_at", TimestampType, false)
      .add("benchlake_version", StringType, false)
      .add(SERVER_START, StringType, true);

  /**
   * Per-task latency. {@code latency_ns} runs from the intended start (what the user waited),
   * {@code service_ns} from the actual start; either is null where the source does not know it
   * (e.g. a failed TestPostgresqlPerf task). {@code warmup} tasks are kept but excluded from
   * statistics. {@code source_line} points back at the raw line.
   */
  public static final StructType TASKS = new StructType()
      .add(RUN_ID, StringType, false)
      .add(STEP, StringType, false)
      .add("client_id", IntegerType, false)
      .add("seq", LongType, false)
      .add(START_TS, TimestampType, true)
      .add(END_TS, TimestampType, true)
      .add(LATENCY_NS, LongType, true)
      .add("service_ns", LongType, true)
      .add("wait_ns", LongType, true)
      .add(WARMUP, BooleanType, false)
      .add(OK, BooleanType, false)
      .add("sqlstate", StringType, true)
      .add("error", StringType, true)
      .add(SOURCE_LINE, LongType, false);

  /**
   * The table-maintenance state of a step's tables at one moment, summed over the tables, as
   * loadgen's manifest records it ({@code dev.benchlake.core.raw.TableHealth}): {@code taken_at}
   * the server's clock; the sums of {@code pg_stat_user_tables}' {@code n_live_tup},
   * {@code n_dead_tup}, {@code autovacuum_count}, {@code autoanalyze_count}; the latest
   * {@code last_autovacuum} and {@code last_autoanalyze}; the server's checkpoints and the buffers
   * they wrote. A method rather than a constant so that the two columns of this type are two
   * equal instances (the class initialises in declaration order).
   */
  public static StructType tableHealth() {
    return new StructType()
        .add("taken_at", TimestampType, true)
        .add("tables", IntegerType, true)
        .add("n_live_tup", LongType, true)
        .add("n_dead_tup", LongType, true)
        .add("autovacuum_count", LongType, true)
        .add("autoanalyze_count", LongType, true)
        .add("last_autovacuum", TimestampType, true)
        .add("last_autoanalyze", TimestampType, true)
        .add("checkpoints", LongType, true)
        .add("buffers_written", LongType, true);
  }

  /** step_metrics' table health columns (format 3); see {@link #STEP_METRICS}. */
  public static final String HEALTH_BEFORE = "health_before";
  public static final String HEALTH_AFTER = "health_after";
  public static final String TABLES_AUTOVACUUMED = "tables_autovacuumed";
  public static final String TABLES_AUTOANALYZED = "tables_autoanalyzed";
  public static final String BETWEEN_STEPS = "between_steps";
  /** The step_metrics row that carries a step's table health: its value is the number of tables. */
  public static final String TABLE_HEALTH_METRIC = "table_health";

  /**
   * Aggregates from sources that carry no per-task data (sysbench, pgbench summaries and aggregate
   * logs, QPS tables). {@code interval_start_s} is seconds from the start of the run, null for a
   * whole-run figure; {@code bucket} is the bucket value of a histogram row, null otherwise.
   *
   * <p>Format 3 appends a step's table health, from loadgen's manifest: on one row per step (per
   * task name), {@code metric = table_health}, {@code value} the number of tables, {@code unit
   * tables}, whole-run, with {@code health_before} and {@code health_after} ({@link #tableHealth()}),
   * {@code tables_autovacuumed} / {@code tables_autoanalyzed} (how many tables autovacuum and
   * autoanalyze processed during the step) and {@code between_steps} (the run's
   * {@code --between-steps}). Null on every other row, and wherever the source did not record it
   * (sysbench, pgbench, older loadgen runs and warehouses): not recorded.
   */
  public static final StructType STEP_METRICS = new StructType()
      .add(RUN_ID, StringType, false)
      .add(STEP, StringType, false)
      .add(INTERVAL_START_S, DoubleType, true)
      .add(INTERVAL_S, DoubleType, true)
      .add(METRIC, StringType, false)
      .add(VALUE, DoubleType, false)
      .add(UNIT, StringType, false)
      .add(BUCKET, DoubleType, true)
      .add(SOURCE_LINE, LongType, true)
      .add(HEALTH_BEFORE, tableHealth(), true)
      .add(HEALTH_AFTER, tableHealth(), true)
      .add(TABLES_AUTOVACUUMED, IntegerType, true)
      .add(TABLES_AUTOANALYZED, IntegerType, true)
      .add(BETWEEN_STEPS, StringType, true);

  /**
   * Every line that was not accepted, with the reason a human can act on. {@code error_type}
   * (format 2) is one of {@link RejectType}'s names, for grouping; {@code column} the field at
   * fault where one is. Both are null on rejects of warehouses of format 1: not recorded.
   */
  public static final StructType REJECTS = new StructType()
      .add(RUN_ID, StringType, false)
      .add(REJECT_SOURCE_FILE, StringType, false)
      .add("line_no", LongType, false)
      .add(RAW_LINE, StringType, false)
      .add(REASON, StringType, false)
      .add(ERROR_TYPE, StringType, true)
      .add(COLUMN, StringType, true);

  /**
   * Format 2: one row per source file per run: the file's accounting. Every line of the file is a
   * data line (tasks or metrics), a metadata line of the format (header, comment, blank) or a
   * rejected line: {@code lines = data_lines + metadata_lines + rejected_lines}. A file of a source
   * that splits into several runs (a CSV with a run column) is counted once, under the first of
   * those runs, as its rejects are. Runs ingested before format 2 have no rows here (their
   * accounting is in {@code runs.metadata_json}).
   */
  public static final StructType INGEST_FILES = new StructType()
      .add(RUN_ID, StringType, false)
      .add("path", StringType, false)
      .add("sha256", StringType, false)
      .add("bytes", LongType, false)
      .add("lines", LongType, false)
      .add("data_lines", LongType, false)
      .add("metadata_lines", LongType, false)
      .add("rejected_lines", LongType, false);

  /** Delta's table property naming the columns it collects per-file statistics of. */
  public static final String STATS_COLUMNS_PROPERTY = "delta.dataSkippingStatsColumns";

  /**
   * The columns that hold text a tool or a driver wrote, which may echo a secret: a rejected line,
   * the reason that quotes it, a task's error, a run's facts ({@code metadata_json}, whose first key
   * is {@code facts}: a tool's version line, an echoed command). Ingest stores them scrubbed
   * ({@code Redaction}), and no table keeps Delta's per-file statistics of them: a statistic is a
   * 32-character prefix of the value in the Delta log, which nothing scrubs.
   */
  public static final java.util.Set<String> RAW_TEXT_COLUMNS = java.util.Set.of(RAW_LINE, REASON, "error", "metadata_json");

  /**
   * The columns of {@code schema} Delta can keep statistics of (not a list, a map or a struct), but
   * raw text ({@link #RAW_TEXT_COLUMNS}), in order: Delta's default for the table, less what must
   * stay out of its log.
   */
  private static String statisticsColumnsOf(StructType schema) {
    return java.util.Arrays.stream(schema.fields()).filter(f -> !RAW_TEXT_COLUMNS.contains(f.name()))
        .filter(f -> !(f.dataType() instanceof org.apache.spark.sql.types.ArrayType
            || f.dataType() instanceof org.apache.spark.sql.types.MapType || f.dataType() instanceof StructType))
        .map(StructField::name).collect(java.util.stream.Collectors.joining(","));
  }

  /** The tables, in the order an ingest commits them (runs last: the commit point). */
  public enum Table {
    REJECTS("rejects", WarehouseSchema.REJECTS,
        java.util.Map.of(STATS_COLUMNS_PROPERTY, statisticsColumnsOf(WarehouseSchema.REJECTS))),
    INGEST_FILES("ingest_files", WarehouseSchema.INGEST_FILES),
    STEP_METRICS("step_metrics", WarehouseSchema.STEP_METRICS),
    TASKS("tasks", WarehouseSchema.TASKS, java.util.Map.of(STATS_COLUMNS_PROPERTY, RUN_ID + "," + STEP)),
    RUNS("runs", WarehouseSchema.RUNS, java.util.Map.of(STATS_COLUMNS_PROPERTY, statisticsColumnsOf(WarehouseSchema.RUNS)));

    private final String dirName;
    private final StructType schema;
    private final java.util.Map<String, String> properties;

    Table(String dirName, StructType schema) {
      this(dirName, schema, java.util.Map.of());
    }

    Table(String dirName, StructType schema, java.util.Map<String, String> properties) {
      this.dirName = dirName;
      this.schema = schema;
      this.properties = properties;
    }

    /**
     * The Delta table properties the table is created with, and that {@code upgrade} and ingest set
     * on a table an earlier build created ({@code write.TableProperties}). tasks keeps per-file min/max
     * statistics only of the columns reads filter it on (run id, step): Delta's default, every
     * column of the first 32, cost 14 % of an ingest's CPU, on columns no read skips by (format 4).
     * rejects and runs keep them of every column but raw text ({@link #RAW_TEXT_COLUMNS}): Delta's
     * default would put a prefix of every rejected line and of every run's facts into the Delta log.
     */
    public java.util.Map<String, String> properties() {
      return properties;
    }

    public String dirName() {
      return dirName;
    }

    public StructType schema() {
      return schema;
    }
  }

  /** A field of {@code schema} by name (fails fast on a typo). */
  public static StructField field(StructType schema, String name) {
    return schema.apply(name);
  }
}
