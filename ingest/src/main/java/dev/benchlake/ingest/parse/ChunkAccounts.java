package dev.benchlake.ingest.parse;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.util.AccumulatorV2;

/**
 * The accounting of the one pass, gathered beside the tasks it writes: per chunk, its
 * {@link ParsedRows#SCHEMA} rows (task and metadata-line counts, metrics, rejects, facts). A Spark
 * accumulator updated by the write job itself, so Spark applies each chunk's rows once.
 *
 * <p>They travel to the driver, so they are bounded: a chunk whose rows pass {@code budgetBytes}
 * (estimated), or that would take the total past it, is marked overflowed instead and its rows
 * dropped; the ingest parses those chunks again for their accounting only (hostile files with
 * millions of rejects, not the ordinary case).
 */
public final class ChunkAccounts extends AccumulatorV2<ChunkAccounts.Chunk, ChunkAccounts.Gathered> {
  private static final long serialVersionUID = 1L;

  /** A chunk by its source, file and first byte. */
  public record ChunkKey(int source, int file, long start) implements Serializable {
    private static final long serialVersionUID = 1L;

    public static ChunkKey of(ChunkJob job) {
      return new ChunkKey(job.source(), job.file(), job.chunk().start());
    }
  }

  /** One chunk's accounting rows and their estimated size; null rows: overflowed. */
  public record Chunk(ChunkKey key, List<Row> rows, long bytes) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** What the job gathered: the rows of every chunk that fit, and the chunks that did not. */
  public record Gathered(List<Row> rows, List<ChunkKey> overflowed) {}

  private final long budgetBytes;
  private final List<Chunk> chunks = new ArrayList<>();
  private long bytes;

  public ChunkAccounts(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  public long budgetBytes() {
    return budgetBytes;
  }

  @Override
  public boolean isZero() {
    return chunks.isEmpty();
  }

  @Override
  public ChunkAccounts copy() {
    ChunkAccounts copy = new ChunkAccounts(budgetBytes);
    copy.merge(this);
    return copy;
  }

  @Override
  public void reset() {
    chunks.clear();
    bytes = 0;
  }

  @Override
  public void add(Chunk chunk) {
    if (chunk.rows() == null || bytes + chunk.bytes() > budgetBytes) {
      chunks.add(new Chunk(chunk.key(), null, 0));
      return;
    }
    chunks.add(chunk);
    bytes += chunk.bytes();
  }

  @Override
  public void merge(AccumulatorV2<Chunk, Gathered> other) {
    for (Chunk chunk : ((ChunkAccounts) other).chunks) {
      add(chunk);
    }
  }

  @Override
  public Gathered value() {
    List<Row> rows = new ArrayList<>();
    List<ChunkKey> overflowed = new ArrayList<>();
    for (Chunk chunk : chunks) {
      if (chunk.rows() == null) {
        overflowed.add(chunk.key());
      } else {
        rows.addAll(chunk.rows());
      }
    }
    return new Gathered(rows, overflowed);
  }

  /** A rough size of a row on the heap: what the budget counts. */
  static long estimate(Row row) {
    long size = 64;
    for (int i = 0; i < row.size(); i++) {
      Object value = row.get(i);
      size += value instanceof String s ? 48 + 2L * s.length() : value instanceof Row nested ? estimate(nested) : 16;
    }
    return size;
  }
}
