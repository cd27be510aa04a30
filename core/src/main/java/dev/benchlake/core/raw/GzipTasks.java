package dev.benchlake.core.raw;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * Reads a tasks.csv.gz as the raw contract reads a tasks.csv: up to where it ends. loadgen writes
 * it with a sync flush at each of its flushes (at least every second), so a file cut by a crash
 * holds every line flushed before the cut as whole deflate blocks, then at most part of one block.
 * Inflating a cut stream gives a prefix of the whole file's text; where the bytes end (even inside
 * the gzip header or the last block), the text ends, as a cut tasks.csv does: every complete line
 * is valid and at most the last one is cut short. A damaged stream (not a cut one) still fails.
 */
public final class GzipTasks {
  /** The gzip file name ending that marks a tasks file as compressed. */
  public static final String SUFFIX = ".gz";

  private GzipTasks() {}

  /** Whether {@code fileName} names a compressed tasks file. */
  public static boolean compressed(String fileName) {
    return fileName.endsWith(SUFFIX);
  }

  /** The text of a gzip stream up to where its bytes end; {@code raw} is closed with the result. */
  public static InputStream inflating(InputStream raw) throws IOException {
    GZIPInputStream gzip;
    try {
      gzip = new GZIPInputStream(raw, 1 << 16);
    } catch (EOFException cutInTheHeader) {
      raw.close();
      return new ByteArrayInputStream(new byte[0]);
    }
    return new InputStream() {
      private boolean ended;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (ended) {
          return -1;
        }
        try {
          return gzip.read(b, off, len);
        } catch (EOFException cut) {
          // The bytes end inside a block or the trailer: InflaterInputStream throws only when the
          // inflater gave nothing in this call, so every byte it could decode was returned before.
          ended = true;
          return -1;
        }
      }

      @Override
      public void close() throws IOException {
        gzip.close();
      }
    };
  }
}
