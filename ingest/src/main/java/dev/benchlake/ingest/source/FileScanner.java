package dev.benchlake.ingest.source;

import dev.benchlake.core.Sha256;
import dev.benchlake.core.raw.GzipTasks;
import java.io.OutputStream;
import java.security.DigestInputStream;
import java.io.IOException;
import java.io.InputStream;
import dev.benchlake.warehouse.fs.Storage;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Reads a file once, sequentially, and returns its {@link ScannedFile}: the SHA-256 that makes
 * ingest idempotent and, in the same pass, the newline count of every chunk, which gives each
 * chunk the exact number of its first line. Parsing can then run on the chunks in parallel (and on
 * a cluster) while rejects still name the right line.
 *
 * <p>Why on the driver: the content hash has to be computed over the whole file in order anyway,
 * and counting newlines in the buffer it already holds costs little next to hashing it; a separate
 * Spark pass would read every byte a second time.
 */
public final class FileScanner {
  private static final int BUFFER_BYTES = 1 << 20;

  private FileScanner() {}

  /**
   * @param chunkBytes target chunk size; a file that is not split ({@code splittable == false})
   *     gets one chunk
   */
  public static ScannedFile scan(Storage files, Path file, long chunkBytes, boolean splittable) throws IOException {
    if (GzipTasks.compressed(file.getName())) {
      try (InputStream in = files.open(file)) {
        return scanCompressed(in, file.toString());
      }
    }
    long size = files.size(file);
    try (InputStream in = files.open(file)) {
      return scan(in, size, file.toString(), chunkBytes, splittable);
    }
  }

  /**
   * A tasks.csv.gz ({@link GzipTasks}): its hash is the stored bytes', as {@code sha256sum} gives it;
   * its size, lines and one chunk are the text's (a gzip stream is read from its start, so it is
   * parsed in one piece, by {@link ChunkLineReader#open}, inflating as this does).
   */
  static ScannedFile scanCompressed(InputStream stored, String path) throws IOException {
    MessageDigest sha = Sha256.newDigest();
    DigestInputStream hashed = new DigestInputStream(stored, sha);
    InputStream text = GzipTasks.inflating(hashed);
    byte[] buffer = new byte[BUFFER_BYTES];
    long size = 0;
    long newlines = 0;
    int lastByte = -1;
    int read;
    while ((read = text.read(buffer)) > 0) {
      newlines += newlinesIn(buffer, 0, read);
      lastByte = buffer[read - 1];
      size += read;
    }
    hashed.transferTo(OutputStream.nullOutputStream()); // what a cut stream left unread is still hashed
    long lines = newlines + (size > 0 && lastByte != '\n' ? 1 : 0);
    return new ScannedFile(path, HexFormat.of().formatHex(sha.digest()), size, lines,
        List.of(new ScannedFile.Chunk(0, size, 1)));
  }

  /** {@link #scan(Storage, Path, long, boolean)} of a local file (tests). */
  public static ScannedFile scan(java.nio.file.Path file, long chunkBytes, boolean splittable) throws IOException {
    try (InputStream in = java.nio.file.Files.newInputStream(file)) {
      return scan(in, java.nio.file.Files.size(file), file.toAbsolutePath().toString(), chunkBytes, splittable);
    }
  }

  /**
   * Scans the content of one file (pure: the caller opens and closes the stream).
   *
   * @param size the file's size, as its file system said before it was opened
   * @param path the file's location, as {@link ScannedFile#path()} keeps it
   */
  public static ScannedFile scan(InputStream in, long size, String path, long chunkBytes, boolean splittable)
      throws IOException {
    if (chunkBytes < 1) {
      throw new IllegalArgumentException("chunkBytes must be positive: " + chunkBytes);
    }
    long step = splittable ? chunkBytes : Math.max(size, 1);
    int chunkCount = (int) Math.max(1, (size + step - 1) / step);
    long[] newlinesBefore = new long[chunkCount + 1];
    boolean[] endsWithNewline = new boolean[chunkCount];
    MessageDigest sha = Sha256.newDigest();
    byte[] buffer = new byte[BUFFER_BYTES];
    long position = 0;
    long newlines = 0;
    int lastByte = -1;
    int read;
    // The last byte of the chunk whose end comes next: at each, the running count is recorded.
    long nextLast = step - 1;
    int chunk = 0;
    while ((read = in.read(buffer)) > 0) {
      sha.update(buffer, 0, read);
      int from = 0;
      while (chunk < chunkCount && nextLast < position + read) {
        int last = (int) (nextLast - position);
        newlines += newlinesIn(buffer, from, last + 1);
        newlinesBefore[chunk + 1] = newlines;
        endsWithNewline[chunk] = buffer[last] == '\n';
        from = last + 1;
        chunk++;
        nextLast += step;
      }
      newlines += newlinesIn(buffer, from, read);
      lastByte = buffer[read - 1];
      position += read;
    }
    if (position != size) {
      throw new IOException(path + " changed size while it was read (" + size + " then " + position + " bytes)");
    }
    List<ScannedFile.Chunk> chunks = new ArrayList<>(chunkCount);
    for (int c = 0; c < chunkCount; c++) {
      long start = c * step;
      long end = Math.min(size, start + step);
      // Lines that start before `start`: the one at 0, plus one after every newline before
      // start - 1 (a newline at start - 1 starts the chunk's own first line).
      long firstLine = c == 0 ? 1 : 2 + newlinesBefore[c] - (endsWithNewline[c - 1] ? 1 : 0);
      chunks.add(new ScannedFile.Chunk(start, end, firstLine));
    }
    long lines = newlines + (size > 0 && lastByte != '\n' ? 1 : 0);
    return new ScannedFile(path, HexFormat.of().formatHex(sha.digest()), size, lines, chunks);
  }

  /** Counted in a loop of its own, without a branch, which the JIT compiles to a few instructions a byte. */
  private static int newlinesIn(byte[] bytes, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      n += (bytes[i] ^ '\n') == 0 ? 1 : 0;
    }
    return n;
  }
}
