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
      minStartUs = nullableMin(minStartUs, o.minStartUs);
      maxEndUs = nullableMax(maxEndUs, o.maxEndUs);
    }

    // Not one conditional: `a == null ? b : … Math.min(a, b)` mixes Long and long, so Java types
    // the whole expression long and unboxes a null b (a CSV mapped without a timestamp has none).
    private static Long nullableMin(Long a, Long b) {
      if (a == null) {
        return b;
      }
      return b == null ? a : Long.valueOf(Math.min(a, b));
    }

    private static Long nullableMax(Long a, Long b) {
      if (a == null) {
        return b;
      }
      return b == null ? a : Long.valueOf(Math.max(a, b));
    }
  }

  /** The lines of one file by verdict. */
  static final class FileCounts implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Lines that gave rows (tasks or metrics). */
    long data;
    /** Accepted lines of the format that are no rows (headers, blank lines, comments). */
    long metadata;
    long rejected;

    long accepted() {
      return data + metadata;
    }

    void merge(FileCounts o) {
      data += o.data;
      metadata += o.metadata;
      rejected += o.rejected;
    }
  }

  /** What the pass counted of one source: per run part, per file (by its index in the source), and its facts. */
  static final class SourceAccount implements Serializable {
    private static final long serialVersionUID = 1L;
    static final SourceAccount NONE = new SourceAccount();
    final Map<String, PartStats> parts = new TreeMap<>();
    final Map<Integer, FileCounts> files = new HashMap<>();
    final Map<String, String> facts = new TreeMap<>();

    /** The counts of a run part (zero when it has none). */
    PartStats part(String runPart) {
      return parts.getOrDefault(runPart, new PartStats());
    }

    /** The counts of the source's {@code file}-th file (zero when it has none). */
    FileCounts file(int file) {
      return files.getOrDefault(file, new FileCounts());
    }

    long rejectedLines() {
      return files.values().stream().mapToLong(c -> c.rejected).sum();
    }

    void merge(SourceAccount o) {
      o.parts.forEach((part, stats) -> parts.computeIfAbsent(part, x -> new PartStats()).merge(stats));
      o.files.forEach((f, c) -> files.computeIfAbsent(f, x -> new FileCounts()).merge(c));
      facts.putAll(o.facts);
    }
  }

  /** Per source (by its index in the pass, as the rows carry it). */
  private final Map<Integer, SourceAccount> sources = new HashMap<>();

  /** What was counted of the {@code source}-th source (nothing when it gave no row). */
  SourceAccount of(int source) {
    return sources.getOrDefault(source, SourceAccount.NONE);
  }

  static Accounting of(Iterable<Row> rows) {
    Accounting accounting = new Accounting();
    rows.forEach(accounting::add);
    return accounting;
  }

  /** Adds one {@link ParsedRows#SCHEMA} row. */
  Accounting add(Row r) {
    SourceAccount account = sources.computeIfAbsent(r.getInt(SOURCE), s -> new SourceAccount());
    int file = r.getInt(FILE);
    byte kind = r.getByte(KIND);
    long lines = r.getLong(N_LINES);
    if (kind == ParsedRows.FACT) {
      account.facts.put(r.getString(FACT_KEY), r.getString(FACT_VALUE));
      return this;
    }
    FileCounts count = account.files.computeIfAbsent(file, f -> new FileCounts());
    if (kind == ParsedRows.TASK_SUMMARY || kind == ParsedRows.METRIC) {
      count.data += lines;
      PartStats stats = account.parts.computeIfAbsent(r.getString(RUN_PART), p -> new PartStats());
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
      count.metadata += lines;
    } else if (kind == ParsedRows.REJECT) {
      count.rejected += lines;
    }
    return this;
  }

  /** This accounting with {@code other}'s added (in place). */
  Accounting merge(Accounting other) {
    other.sources.forEach((s, account) -> sources.computeIfAbsent(s, x -> new SourceAccount()).merge(account));
    return this;
  }
}
