package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.ChunkAccounts;
import dev.benchlake.ingest.parse.ChunkJob;
import dev.benchlake.ingest.parse.ChunkParsing;
import dev.benchlake.ingest.parse.ParsedRows;
import dev.benchlake.ingest.source.FileScanner;
import dev.benchlake.ingest.source.ScannedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;

/**
 * The engine's parsing of a planned source, without Spark: {@link FileScanner} cuts each file into
 * chunks and numbers their lines, {@link ChunkParsing} runs both passes on every chunk exactly as
 * an executor does (with its own one-verdict-per-line checks). What is left to Spark (grouping,
 * writing) is not what hostile input breaks, so parser properties run here, fast.
 */
final class EngineParse {
  private static final int KIND = ParsedRows.SCHEMA.fieldIndex(ParsedRows.KIND);
  private static final int N_LINES = ParsedRows.SCHEMA.fieldIndex(ParsedRows.N_LINES);
  private static final int LINE_NO = ParsedRows.SCHEMA.fieldIndex(ParsedRows.LINE_NO);
  static final int RAW_LINE = ParsedRows.SCHEMA.fieldIndex("raw_line");
  static final int REASON = ParsedRows.SCHEMA.fieldIndex("reason");
  static final int VALUE = ParsedRows.SCHEMA.fieldIndex("value");
  static final int BUCKET = ParsedRows.SCHEMA.fieldIndex("bucket");
  static final int INTERVAL_START = ParsedRows.SCHEMA.fieldIndex("interval_start_s");
  static final int INTERVAL = ParsedRows.SCHEMA.fieldIndex("interval_s");

  private EngineParse() {}

  /**
   * The verdicts on one file.
   *
   * @param lines the file's line count according to {@link FileScanner}
   * @param rejects REJECT rows ({@link ParsedRows#SCHEMA}), in line order
   * @param metrics METRIC rows
   * @param tasks the one pass's task rows ({@link ParsedRows#TASK_SCHEMA})
   */
  record FileVerdicts(Path path, long lines, long taskLines, long metricLines, long metadataLines, long rejectLines,
      List<Row> rejects, List<Row> metrics, List<Row> tasks) {
    long verdictLines() {
      return taskLines + metricLines + metadataLines + rejectLines;
    }

    List<Long> rejectedLineNumbers() {
      return rejects.stream().map(r -> r.getLong(LINE_NO)).toList();
    }
  }

  static List<FileVerdicts> parse(SourcePlan plan, long chunkBytes) throws IOException {
    List<FileVerdicts> out = new ArrayList<>();
    for (int f = 0; f < plan.files().size(); f++) {
      SourcePlan.PlannedFile file = plan.files().get(f);
      ScannedFile scanned = FileScanner.scan(LocalPaths.LOCAL, file.path(), chunkBytes, file.splittable());
      long tasks = 0;
      long metrics = 0;
      long metadata = 0;
      long rejected = 0;
      List<Row> rejects = new ArrayList<>();
      List<Row> metricRows = new ArrayList<>();
      List<Row> taskRows = new ArrayList<>();
      for (ScannedFile.Chunk chunk : scanned.chunks()) {
        ChunkJob job = new ChunkJob(0, f, scanned.path(), chunk, file.lineParser(), file.documentParser(), false);
        // The one pass, as ingest runs it: the tasks out, the accounting beside them.
        ChunkAccounts accounts = new ChunkAccounts(Long.MAX_VALUE);
        ChunkParsing.tasksAndAccounts(job, LocalPaths.LOCAL, accounts).forEachRemaining(taskRows::add);
        ChunkAccounts.Gathered gathered = accounts.value();
        if (!gathered.overflowed().isEmpty()) {
          throw new IllegalStateException("no budget, yet a chunk overflowed");
        }
        for (Row row : gathered.rows()) {
          long n = row.getLong(N_LINES);
          switch (row.getByte(KIND)) {
            case ParsedRows.TASK_SUMMARY -> tasks += n;
            case ParsedRows.METRIC -> {
              metrics += n;
              metricRows.add(row);
            }
            case ParsedRows.METADATA -> metadata += n;
            case ParsedRows.REJECT -> {
              rejected += n;
              rejects.add(row);
            }
            default -> { }
          }
        }
      }
      out.add(new FileVerdicts(LocalPaths.local(file.path()), scanned.lines(), tasks, metrics, metadata, rejected, rejects, metricRows,
          taskRows));
    }
    return out;
  }
}
