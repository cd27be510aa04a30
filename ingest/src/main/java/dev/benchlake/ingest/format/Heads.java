package dev.benchlake.ingest.format;

import dev.benchlake.ingest.source.Bom;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * The first complete lines of a file (up to {@link Probe#HEAD_BYTES}), for planning: without line
 * ends and without a byte-order mark, as the parsers see them.
 */
public final class Heads {
  private Heads() {}

  public static List<String> read(Path file, Storage files) throws IOException {
    return lines(files.head(file, Probe.HEAD_BYTES), files.size(file));
  }

  /**
   * The complete lines of a file's head.
   *
   * @param head the first bytes of the file
   * @param size the file's size: when the head is shorter, its last line may be cut and is dropped
   */
  public static List<String> lines(byte[] head, long size) {
    List<String> lines = new ArrayList<>(Arrays.asList(new String(head, StandardCharsets.UTF_8).split("\n", -1)));
    if (size > head.length || lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    lines.replaceAll(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
    if (!lines.isEmpty()) {
      lines.set(0, Bom.strip(lines.get(0)));
    }
    return lines;
  }
}
