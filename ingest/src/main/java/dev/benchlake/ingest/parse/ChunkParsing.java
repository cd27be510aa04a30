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
    try {
      ChunkLineReader reader = ChunkLineReader.open(files, Storage.location(job.path()), job.chunk().start(),
          job.chunk().end());
      RowSink sink = new RowSink(job.source(), job.file(), job.tasksPass());
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
    }

    /** The end of the chunk: the accounting pass adds its task counts. */
    void finish() {
      if (tasksPass) {
        return;
      }
      taskCounts.forEach((part, c) -> buffer.add(ParsedRows.taskSummary(source, file, part, c[0], c[1],
          c[2] == Long.MAX_VALUE ? null : c[2], c[3] == Long.MIN_VALUE ? null : c[3])));
      taskCounts.clear();
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
        return;
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
      if (!tasksPass) {
        buffer.add(ParsedRows.metric(source, file, lineNo, first, metric));
      }
    }

    @Override
    public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
      first(lineNo, ParsedRows.REJECT);
      if (!tasksPass) {
        // Bytes that are not UTF-8 decode to U+FFFD: then the bytes are the cause, whatever field
        // the parser stumbled on, and that is what a user grouping rejects needs to see.
        RejectType cause = rawLine.indexOf('\uFFFD') >= 0 ? RejectType.ENCODING : type;
        buffer.add(ParsedRows.reject(source, file, lineNo, rawLine, cause, column, reason));
      }
    }

    @Override
    public void metadata(long lineNo) {
      first(lineNo, ParsedRows.METADATA);
      if (!tasksPass) {
        buffer.add(ParsedRows.metadata(source, file, lineNo));
      }
    }

    @Override
    public void fact(String runPart, String key, String value) {
      if (!tasksPass) {
        buffer.add(ParsedRows.fact(source, file, runPart, key, value));
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
