package dev.benchlake.ingest.parse;

import dev.benchlake.ingest.source.ChunkLineReader;
import dev.benchlake.warehouse.RejectType;
import java.io.IOException;
import java.io.UncheckedIOException;
import dev.benchlake.warehouse.fs.Storage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.spark.sql.Row;

/**
 * Runs a {@link ChunkJob} on an executor: reads the chunk's lines and turns the parser's verdicts
 * into rows, lazily, so a chunk of any size streams through in constant memory. The accounting
 * pass keeps every verdict but tasks, which it only counts; the task pass keeps only the tasks.
 */
public final class ChunkParsing {
  private ChunkParsing() {}

  /** @param files where the chunk's file is ({@link ChunkJob#path()} is a location as {@link Storage#location} reads it) */
  public static Iterator<Row> rows(ChunkJob job, Storage files) {
    return rows(job, files, null);
  }

  /**
   * The one pass: the chunk's tasks as {@link ParsedRows#TASK_SCHEMA} rows, and its accounting
   * ({@link ParsedRows#SCHEMA} rows: task summaries, one count of metadata lines, metrics,
   * rejects, facts) added to {@code accounts} when the chunk ends.
   */
  public static Iterator<Row> tasksAndAccounts(ChunkJob job, Storage files, ChunkAccounts accounts) {
    return rows(job.forTasks(), files, accounts);
  }

  private static Iterator<Row> rows(ChunkJob job, Storage files, ChunkAccounts accounts) {
    try {
      ChunkLineReader reader = ChunkLineReader.open(files, Storage.location(job.path()), job.chunk().start(),
          job.chunk().end());
      RowSink sink = new RowSink(job, accounts);
      if (job.documentParser() != null) {
        try (reader) {
          List<String> lines = new ArrayList<>();
          String line;
          while ((line = reader.readLine()) != null) {
            lines.add(line);
          }
          job.documentParser().parse(lines, sink);
          sink.checkVerdicts(job, lines.size());
          sink.finish();
          return sink.buffer.iterator();
        }
      }
      return new LineIterator(job, reader, sink);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + job.path(), e);
    }
  }

  private static final class LineIterator implements Iterator<Row> {
    private final ChunkJob job;
    private final ChunkLineReader reader;
    private final RowSink sink;
    private long lineNo;
    private boolean done;

    LineIterator(ChunkJob job, ChunkLineReader reader, RowSink sink) {
      this.job = job;
      this.reader = reader;
      this.sink = sink;
      this.lineNo = job.chunk().firstLineNo();
    }

    @Override
    public boolean hasNext() {
      try {
        while (sink.buffer.isEmpty() && !done) {
          String line = reader.readLine();
          if (line == null) {
            done = true;
            reader.close();
            sink.finish();
            break;
          }
          job.lineParser().parse(lineNo, line, sink);
          if (sink.lastVerdictLine != lineNo) {
            throw new IllegalStateException(job.lineParser().getClass().getSimpleName()
                + " gave no verdict for line " + lineNo + " of " + job.path());
          }
          lineNo++;
        }
        return !sink.buffer.isEmpty();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + job.path(), e);
      }
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return sink.buffer.poll();
    }
  }

  /** Buffers rows and checks that each line gets one verdict, in order. */
  static final class RowSink implements ParseSink {
    private final int source;
    private final int file;
    private final boolean tasksPass;
    /** The one pass's accounting, or null (the accounting pass, or the task pass alone). */
    private final ChunkAccounts accounts;
    private final ChunkAccounts.ChunkKey key;
    /** The one pass: the chunk's accounting rows so far (null once past the budget), their size. */
    private List<Row> side = new ArrayList<>();
    private long sideBytes;
    private long metadataLines;
    final ArrayDeque<Row> buffer = new ArrayDeque<>();
    long lastVerdictLine = 0;
    long verdicts = 0;
    private byte lastKind = -1;
    /** Accounting pass: per run part, [tasks, failed, min start (or end), max end]. */
    private final Map<String, long[]> taskCounts = new TreeMap<>();

    RowSink(int source, int file, boolean tasksPass) {
      this.source = source;
      this.file = file;
      this.tasksPass = tasksPass;
      this.accounts = null;
      this.key = null;
    }

    RowSink(ChunkJob job, ChunkAccounts accounts) {
      this.source = job.source();
      this.file = job.file();
      this.tasksPass = job.tasksPass();
      this.accounts = accounts;
      this.key = accounts == null ? null : ChunkAccounts.ChunkKey.of(job);
    }

    /** Whether this sink keeps the accounting verdicts (the accounting pass or the one pass). */
    private boolean accounting() {
      return !tasksPass || accounts != null;
    }

    /** An accounting row: to the output (accounting pass) or, in the one pass, to the side. */
    private void account(Row row) {
      if (accounts == null) {
        buffer.add(row);
        return;
      }
      if (side == null) {
        return;
      }
      sideBytes += ChunkAccounts.estimate(row);
      if (sideBytes > accounts.budgetBytes()) {
        side = null;
      } else {
        side.add(row);
      }
    }

    /** The end of the chunk: the task counts (and in the one pass the whole accounting) go out. */
    void finish() {
      if (!accounting()) {
        return;
      }
      taskCounts.forEach((part, c) -> account(ParsedRows.taskSummary(source, file, part, c[0], c[1],
          c[2] == Long.MAX_VALUE ? null : c[2], c[3] == Long.MIN_VALUE ? null : c[3])));
      taskCounts.clear();
      if (accounts != null) {
        if (metadataLines > 0) {
          account(ParsedRows.metadataLines(source, file, metadataLines));
        }
        accounts.add(new ChunkAccounts.Chunk(key, side, sideBytes));
        side = List.of();
      }
    }

    private boolean first(long lineNo, byte kind) {
      if (lineNo == lastVerdictLine) {
        if (kind != lastKind || kind == ParsedRows.REJECT || kind == ParsedRows.METADATA) {
          throw new IllegalStateException("line " + lineNo + " got two verdicts");
        }
        return false;
      }
      if (lineNo < lastVerdictLine) {
        throw new IllegalStateException("verdict for line " + lineNo + " after line " + lastVerdictLine);
      }
      lastVerdictLine = lineNo;
      lastKind = kind;
      verdicts++;
      return true;
    }

    @Override
    public void task(long lineNo, ParsedTask task) {
      if (!first(lineNo, ParsedRows.TASK)) {
        throw new IllegalStateException("line " + lineNo + " gave two tasks");
      }
      if (tasksPass) {
        buffer.add(ParsedRows.task(source, lineNo, task));
        if (accounts == null) {
          return;
        }
      }
      long[] c = taskCounts.computeIfAbsent(task.runPart(), p -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
      c[0]++;
      if (!task.ok()) {
        c[1]++;
      }
      Long start = task.startEpochUs() != null ? task.startEpochUs() : task.endEpochUs();
      if (start != null) {
        c[2] = Math.min(c[2], start);
      }
      if (task.endEpochUs() != null) {
        c[3] = Math.max(c[3], task.endEpochUs());
      }
    }

    @Override
    public void metric(long lineNo, ParsedMetric metric) {
      boolean first = first(lineNo, ParsedRows.METRIC);
      if (accounting()) {
        account(ParsedRows.metric(source, file, lineNo, first, metric));
      }
    }

    @Override
    public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
      first(lineNo, ParsedRows.REJECT);
      if (accounting()) {
        // Bytes that are not UTF-8 decode to U+FFFD: then the bytes are the cause, whatever field
        // the parser stumbled on, and that is what a user grouping rejects needs to see.
        RejectType cause = rawLine.indexOf('\uFFFD') >= 0 ? RejectType.ENCODING : type;
        account(ParsedRows.reject(source, file, lineNo, rawLine, cause, column, reason));
      }
    }

    @Override
    public void metadata(long lineNo) {
      first(lineNo, ParsedRows.METADATA);
      if (accounts != null) {
        metadataLines++; // only counted: one row per chunk says how many
      } else if (!tasksPass) {
        buffer.add(ParsedRows.metadata(source, file, lineNo));
      }
    }

    @Override
    public void fact(String runPart, String key, String value) {
      if (accounting()) {
        account(ParsedRows.fact(source, file, runPart, key, value));
      }
    }

    void checkVerdicts(ChunkJob job, int lines) {
      if (verdicts != lines) {
        throw new IllegalStateException(job.documentParser().getClass().getSimpleName() + " gave " + verdicts
            + " verdicts for the " + lines + " lines of " + job.path());
      }
    }
  }
}
