package dev.benchlake.ingest.parse;

import dev.benchlake.ingest.source.ChunkLineReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Row;

/**
 * Runs a {@link ChunkJob} on an executor: reads the chunk's lines and turns the parser's verdicts
 * into {@link ParsedRows} rows, lazily, so a chunk of any size streams through in constant memory.
 */
public final class ChunkParsing {
  private ChunkParsing() {}

  public static Iterator<Row> rows(ChunkJob job) {
    try {
      ChunkLineReader reader = new ChunkLineReader(Path.of(job.path()), job.chunk().start(), job.chunk().end());
      RowSink sink = new RowSink(job.source(), job.file());
      if (job.documentParser() != null) {
        try (reader) {
          List<String> lines = new ArrayList<>();
          String line;
          while ((line = reader.readLine()) != null) {
            lines.add(line);
          }
          job.documentParser().parse(lines, sink);
          sink.checkVerdicts(job, lines.size());
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
    final ArrayDeque<Row> buffer = new ArrayDeque<>();
    long lastVerdictLine = 0;
    long verdicts = 0;
    private byte lastKind = -1;

    RowSink(int source, int file) {
      this.source = source;
      this.file = file;
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
      buffer.add(ParsedRows.task(source, file, lineNo, first(lineNo, ParsedRows.TASK), task));
    }

    @Override
    public void metric(long lineNo, ParsedMetric metric) {
      buffer.add(ParsedRows.metric(source, file, lineNo, first(lineNo, ParsedRows.METRIC), metric));
    }

    @Override
    public void reject(long lineNo, String rawLine, String reason) {
      first(lineNo, ParsedRows.REJECT);
      buffer.add(ParsedRows.reject(source, file, lineNo, rawLine, reason));
    }

    @Override
    public void metadata(long lineNo) {
      first(lineNo, ParsedRows.METADATA);
      buffer.add(ParsedRows.metadata(source, file, lineNo));
    }

    @Override
    public void fact(String runPart, String key, String value) {
      buffer.add(ParsedRows.fact(source, file, runPart, key, value));
    }

    void checkVerdicts(ChunkJob job, int lines) {
      if (verdicts != lines) {
        throw new IllegalStateException(job.documentParser().getClass().getSimpleName() + " gave " + verdicts
            + " verdicts for the " + lines + " lines of " + job.path());
      }
    }
  }
}
