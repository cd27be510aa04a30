package dev.benchlake.ingest;

import dev.benchlake.ingest.parse.ParsedRows;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;

/**
 * The counts and facts of an ingest's {@link ParsedRows#SCHEMA} rows, folded row by row: on the
 * driver over the rows the one pass brought back (no Spark job: a small ingest's accounting is a
 * loop, not an aggregation query), and on the executors over chunks parsed again for their
 * accounting alone, merged on the driver ({@link #merge}).
 */
final class Accounting implements Serializable {
  private static final long serialVersionUID = 1L;
  // Positions in ParsedRows.SCHEMA (the rows are built by position, without a schema).
  private static final int KIND = ParsedRows.SCHEMA.fieldIndex(ParsedRows.KIND);
  private static final int N_LINES = ParsedRows.SCHEMA.fieldIndex(ParsedRows.N_LINES);
  private static final int N_FAILED = ParsedRows.SCHEMA.fieldIndex(ParsedRows.N_FAILED);
  private static final int SOURCE = ParsedRows.SCHEMA.fieldIndex(ParsedRows.SOURCE);
  private static final int FILE = ParsedRows.SCHEMA.fieldIndex(ParsedRows.FILE);
  private static final int RUN_PART = ParsedRows.SCHEMA.fieldIndex(ParsedRows.RUN_PART);
  private static final int START_US = ParsedRows.SCHEMA.fieldIndex(ParsedRows.START_US);
  private static final int END_US = ParsedRows.SCHEMA.fieldIndex(ParsedRows.END_US);
  private static final int FACT_KEY = ParsedRows.SCHEMA.fieldIndex(ParsedRows.FACT_KEY);
  private static final int FACT_VALUE = ParsedRows.SCHEMA.fieldIndex(ParsedRows.FACT_VALUE);

  /** The counts and times of one run part of a source. */
  static final class PartStats implements Serializable {
    private static final long serialVersionUID = 1L;
    long tasks;
    long failedTasks;
    long metrics;
    Long minStartUs;
    Long maxEndUs;

    void merge(PartStats o) {
      tasks += o.tasks;
      failedTasks += o.failedTasks;
      metrics += o.metrics;
      minStartUs = minStartUs == null ? o.minStartUs : o.minStartUs == null ? minStartUs : Math.min(minStartUs, o.minStartUs);
      maxEndUs = maxEndUs == null ? o.maxEndUs : o.maxEndUs == null ? maxEndUs : Math.max(maxEndUs, o.maxEndUs);
    }
  }

  /** Per source, per run part: counts and times. */
  final Map<Integer, Map<String, PartStats>> parts = new HashMap<>();
  /** Per source, per file: [accepted data lines, accepted metadata lines, rejected lines]. */
  final Map<Integer, Map<Integer, long[]>> fileCounts = new HashMap<>();
  /** Per source: its run facts. */
  final Map<Integer, Map<String, String>> facts = new HashMap<>();

  static Accounting of(Iterable<Row> rows) {
    Accounting accounting = new Accounting();
    rows.forEach(accounting::add);
    return accounting;
  }

  /** Adds one {@link ParsedRows#SCHEMA} row. */
  Accounting add(Row r) {
    int source = r.getInt(SOURCE);
    int file = r.getInt(FILE);
    byte kind = r.getByte(KIND);
    long lines = r.getLong(N_LINES);
    if (kind == ParsedRows.FACT) {
      facts.computeIfAbsent(source, s -> new TreeMap<>())
          .put(r.getString(FACT_KEY), r.getString(FACT_VALUE));
      return this;
    }
    long[] count = fileCounts.computeIfAbsent(source, s -> new HashMap<>()).computeIfAbsent(file, f -> new long[3]);
    if (kind == ParsedRows.TASK_SUMMARY || kind == ParsedRows.METRIC) {
      count[0] += lines;
      PartStats stats = parts.computeIfAbsent(source, s -> new TreeMap<>())
          .computeIfAbsent(r.getString(RUN_PART), p -> new PartStats());
      if (kind == ParsedRows.METRIC) {
        stats.metrics++;
        return this;
      }
      PartStats one = new PartStats();
      one.tasks = lines;
      one.failedTasks = r.isNullAt(N_FAILED) ? 0 : r.getLong(N_FAILED);
      one.minStartUs = r.isNullAt(START_US) ? null : r.getLong(START_US);
      one.maxEndUs = r.isNullAt(END_US) ? null : r.getLong(END_US);
      stats.merge(one);
    } else if (kind == ParsedRows.METADATA) {
      count[1] += lines;
    } else if (kind == ParsedRows.REJECT) {
      count[2] += lines;
    }
    return this;
  }

  /** This accounting with {@code other}'s added (in place). */
  Accounting merge(Accounting other) {
    other.parts.forEach((s, byPart) -> byPart.forEach((part, stats) ->
        parts.computeIfAbsent(s, x -> new TreeMap<>()).computeIfAbsent(part, p -> new PartStats()).merge(stats)));
    other.fileCounts.forEach((s, byFile) -> byFile.forEach((f, c) -> {
      long[] mine = fileCounts.computeIfAbsent(s, x -> new HashMap<>()).computeIfAbsent(f, x -> new long[3]);
      for (int i = 0; i < 3; i++) {
        mine[i] += c[i];
      }
    }));
    other.facts.forEach((s, f) -> facts.computeIfAbsent(s, x -> new TreeMap<>()).putAll(f));
    return this;
  }
}
