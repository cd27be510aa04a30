package dev.benchlake.ingest.source;

import java.io.Serializable;
import java.util.List;

/**
 * A source file after one sequential read on the driver: its content hash, its size, its line
 * count and where its lines fall in the byte-range chunks that Spark will parse in parallel.
 *
 * <p>Lines are counted the way a text editor numbers them: a final line without a line end still
 * counts, an empty file has no lines. A chunk {@code [start, end)} owns every line that starts
 * inside it, so each line belongs to exactly one chunk and a line longer than a chunk is read whole
 * by the chunk it starts in.
 *
 * @param path absolute path
 * @param sha256 hex SHA-256 of the content
 * @param bytes size in bytes
 * @param lines number of lines
 * @param chunks the byte ranges, in file order, each with the number of its first line
 */
public record ScannedFile(String path, String sha256, long bytes, long lines, List<Chunk> chunks)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public ScannedFile {
    chunks = List.copyOf(chunks);
  }

  /**
   * A byte range of a file and the number (from 1) of the first line that starts in it.
   *
   * @param start first byte (inclusive)
   * @param end last byte (exclusive)
   * @param firstLineNo number of the first line starting at or after {@code start}
   */
  public record Chunk(long start, long end, long firstLineNo) implements Serializable {
    private static final long serialVersionUID = 1L;
  }
}
