package dev.benchlake.ingest.source;

import dev.benchlake.core.raw.GzipTasks;
import dev.benchlake.warehouse.fs.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Reads the lines that start inside one chunk of a file (see {@link ScannedFile}), each without
 * its line end ({@code \n} or {@code \r\n}), decoded as UTF-8, the file's first line without a
 * UTF-8 byte-order mark ({@link Bom}). A chunk that does not start the
 * file first skips the tail of the line that started before it.
 */
public final class ChunkLineReader implements Closeable {
  private static final int BUFFER_BYTES = 1 << 18;

  private final InputStream in;
  private final long end;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int bufferPos;
  private int bufferLimit;
  /** File position of {@code buffer[bufferPos]}. */
  private long position;
  private boolean eof;
  private byte[] spill = new byte[256];
  /** Whether the next line is the file's first, which loses a byte-order mark (see {@link Bom}). */
  private boolean firstLineOfFile;

  /** The chunk {@code [start, end)} of a file on any file system. */
  public static ChunkLineReader open(Storage files, Path file, long start, long end) throws IOException {
    if (GzipTasks.compressed(file.getName())) {
      // One chunk, the whole text ({@link FileScanner#scanCompressed}): a gzip stream is read from its start.
      if (start != 0) {
        throw new IllegalArgumentException(file + " is read whole, not from byte " + start);
      }
      return new ChunkLineReader(GzipTasks.inflating(files.open(file)), 0, end);
    }
    FSDataInputStream in = files.open(file);
    try {
      in.seek(Math.max(0, start - 1));
      return new ChunkLineReader(in, start, end);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The chunk {@code [start, end)} of a local file (tests). */
  public ChunkLineReader(java.nio.file.Path file, long start, long end) throws IOException {
    this(positioned(file, start), start, end);
  }

  private static InputStream positioned(java.nio.file.Path file, long start) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    channel.position(Math.max(0, start - 1));
    return Channels.newInputStream(channel);
  }

  /**
   * Lines of the chunk {@code [start, end)} from a stream of the file.
   *
   * @param in the file's bytes from {@code max(0, start - 1)} on: a line starts at {@code start}
   *     only if the byte before it is a newline, so the reader drops everything up to and
   *     including the first newline it reads
   */
  public ChunkLineReader(InputStream in, long start, long end) throws IOException {
    this.end = end;
    this.position = Math.max(0, start - 1);
    this.in = in;
    if (start > 0) {
      skipPastNewline();
    }
    this.firstLineOfFile = start == 0;
  }

  /** The next line, or null when no further line starts inside the chunk. */
  public String readLine() throws IOException {
    String line = nextLine();
    if (line != null && firstLineOfFile) {
      // Stripped after decoding, not skipped as bytes: the line still starts at byte 0, which is
      // what decides the chunk it belongs to.
      firstLineOfFile = false;
      return Bom.strip(line);
    }
    return line;
  }

  private String nextLine() throws IOException {
    if (position >= end || !fill()) {
      return null;
    }
    int spilled = 0;
    while (true) {
      int newline = indexOfNewline(buffer, bufferPos, bufferLimit);
      if (newline >= 0) {
        int length = newline - bufferPos;
        String text;
        if (spilled == 0) {
          text = decode(buffer, bufferPos, length);
        } else {
          spill = append(spill, spilled, buffer, bufferPos, length);
          text = decode(spill, 0, spilled + length);
        }
        position += newline + 1 - bufferPos;
        bufferPos = newline + 1;
        return text;
      }
      int length = bufferLimit - bufferPos;
      spill = append(spill, spilled, buffer, bufferPos, length);
      spilled += length;
      position += length;
      bufferPos = bufferLimit;
      if (!fill()) {
        return decode(spill, 0, spilled);
      }
    }
  }

  private void skipPastNewline() throws IOException {
    while (fill()) {
      int newline = indexOfNewline(buffer, bufferPos, bufferLimit);
      if (newline >= 0) {
        position += newline + 1 - bufferPos;
        bufferPos = newline + 1;
        return;
      }
      position += bufferLimit - bufferPos;
      bufferPos = bufferLimit;
    }
  }

  private static int indexOfNewline(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static byte[] append(byte[] target, int used, byte[] source, int from, int length) {
    byte[] out = target;
    if (used + length > out.length) {
      out = new byte[Math.max(out.length * 2, used + length)];
      System.arraycopy(target, 0, out, 0, used);
    }
    System.arraycopy(source, from, out, used, length);
    return out;
  }

  private static String decode(byte[] bytes, int from, int length) {
    int n = length;
    if (n > 0 && bytes[from + n - 1] == '\r') {
      n--;
    }
    return new String(bytes, from, n, StandardCharsets.UTF_8);
  }

  /** Whether unread bytes are available (reading more if needed). */
  private boolean fill() throws IOException {
    if (bufferPos < bufferLimit) {
      return true;
    }
    if (eof) {
      return false;
    }
    int read = in.read(buffer, 0, buffer.length);
    if (read <= 0) {
      eof = true;
      return false;
    }
    bufferPos = 0;
    bufferLimit = read;
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
