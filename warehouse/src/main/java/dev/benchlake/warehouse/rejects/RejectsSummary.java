package dev.benchlake.warehouse.rejects;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.row_number;

import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;

/**
 * What {@code benchlake rejects} shows: the rejected lines of committed runs counted by error type
 * and by file, with each file's first examples. Only counts and a few lines per file reach the
 * driver, however many rejects there are.
 *
 * @param total rejected lines
 * @param byType count per {@code error_type}; {@link #NOT_RECORDED} for rejects of a warehouse
 *     written before error types existed
 * @param files per run and file, in run and path order
 */
public record RejectsSummary(long total, Map<String, Long> byType, List<FileRejects> files) {
  /** The key of rejects without an error type (ingested by benchlake 0.1.0). */
  public static final String NOT_RECORDED = "(not recorded)";
  /** Examples kept per file. */
  public static final int EXAMPLES = 3;

  /** The rejects of one file of one run. */
  public record FileRejects(String runId, String sourceFile, long rejected, Map<String, Long> byType,
      List<Example> examples) {}

  /**
   * One rejected line; {@code rawLine} is as stored (cut at 2000 characters by ingest), and scrubbed
   * again ({@link Redaction}) for warehouses written before ingest stored it redacted.
   */
  public record Example(long lineNo, String errorType, String column, String reason, String rawLine) {
    public Example {
      reason = Redaction.scrub(reason);
      rawLine = Redaction.scrub(rawLine);
    }
  }

  /** The rejects of the committed runs {@code runs} selects (all committed runs, or one). */
  public static RejectsSummary of(Warehouse warehouse, Dataset<Row> runs) {
    Dataset<Row> rejects = warehouse.committedOnly(WarehouseSchema.Table.REJECTS, runs);
    List<Row> counts = rejects.groupBy(col(WarehouseSchema.RUN_ID), col("source_file"), col(WarehouseSchema.ERROR_TYPE))
        .count().collectAsList();
    Dataset<Row> firsts = rejects
        .withColumn("n", row_number().over(Window.partitionBy(WarehouseSchema.RUN_ID, "source_file").orderBy("line_no")))
        .where(col("n").leq(EXAMPLES));
    Map<List<String>, List<Example>> examples = new TreeMap<>(RejectsSummary::compareKeys);
    for (Row r : firsts.orderBy("line_no").select(WarehouseSchema.RUN_ID, "source_file", "line_no",
        WarehouseSchema.ERROR_TYPE, WarehouseSchema.COLUMN, "reason", "raw_line").collectAsList()) {
      examples.computeIfAbsent(List.of(r.getString(0), r.getString(1)), k -> new ArrayList<>())
          .add(new Example(r.getLong(2), r.getString(3), r.getString(4), r.getString(5), r.getString(6)));
    }
    Map<List<String>, Map<String, Long>> byFile = new TreeMap<>(RejectsSummary::compareKeys);
    for (Row c : counts) {
      byFile.computeIfAbsent(List.of(c.getString(0), c.getString(1)), k -> new TreeMap<>())
          .merge(c.isNullAt(2) ? NOT_RECORDED : c.getString(2), c.getLong(3), Long::sum);
    }
    return of(byFile, examples);
  }

  /**
   * The same summary from the rejected rows themselves (the Kernel reader's, in memory; see
   * {@code benchlake rejects}): the first examples of a file are those of the lowest line numbers.
   */
  public static RejectsSummary of(List<Row> rejects) {
    Map<List<String>, Map<String, Long>> byFile = new TreeMap<>(RejectsSummary::compareKeys);
    Map<List<String>, List<Row>> rowsByFile = new TreeMap<>(RejectsSummary::compareKeys);
    for (Row r : rejects) {
      List<String> key = List.of(r.getAs(WarehouseSchema.RUN_ID), r.getAs(WarehouseSchema.REJECT_SOURCE_FILE));
      String type = r.getAs(WarehouseSchema.ERROR_TYPE);
      byFile.computeIfAbsent(key, k -> new TreeMap<>()).merge(type == null ? NOT_RECORDED : type, 1L, Long::sum);
      rowsByFile.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    Map<List<String>, List<Example>> examples = new TreeMap<>(RejectsSummary::compareKeys);
    rowsByFile.forEach((key, rows) -> examples.put(key, rows.stream()
        .sorted(Comparator.comparingLong(r -> r.<Long>getAs("line_no")))
        .limit(EXAMPLES)
        .map(r -> new Example(r.<Long>getAs("line_no"), r.getAs(WarehouseSchema.ERROR_TYPE),
            r.getAs(WarehouseSchema.COLUMN), r.getAs("reason"), r.getAs("raw_line")))
        .toList()));
    return of(byFile, examples);
  }

  private static RejectsSummary of(Map<List<String>, Map<String, Long>> byFile,
      Map<List<String>, List<Example>> examples) {
    Map<String, Long> byType = new TreeMap<>();
    long total = 0;
    List<FileRejects> files = new ArrayList<>();
    for (Map.Entry<List<String>, Map<String, Long>> file : byFile.entrySet()) {
      Map<String, Long> types = file.getValue();
      long rejected = types.values().stream().mapToLong(Long::longValue).sum();
      total += rejected;
      types.forEach((type, n) -> byType.merge(type, n, Long::sum));
      files.add(new FileRejects(file.getKey().get(0), file.getKey().get(1), rejected, types,
          examples.getOrDefault(file.getKey(), List.of())));
    }
    return new RejectsSummary(total, sortedByCount(byType), files);
  }

  /** Most frequent first, then by name: the causes worth looking at come first. */
  private static Map<String, Long> sortedByCount(Map<String, Long> counts) {
    Map<String, Long> out = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  private static int compareKeys(List<String> a, List<String> b) {
    int c = a.get(0).compareTo(b.get(0));
    return c != 0 ? c : a.get(1).compareTo(b.get(1));
  }
}
