package dev.benchlake.ingest.format;

import dev.benchlake.ingest.source.Bom;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The first complete lines of a file (up to {@link Probe#HEAD_BYTES}), for planning: without line
 * ends and without a byte-order mark, as the parsers see them.
 */
public final class Heads {
  private Heads() {}

  public static List<String> read(Path file) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(Probe.HEAD_BYTES);
    }
    List<String> lines = new ArrayList<>(Arrays.asList(new String(head, StandardCharsets.UTF_8).split("\n", -1)));
    if (Files.size(file) > head.length || lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    lines.replaceAll(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
    if (!lines.isEmpty()) {
      lines.set(0, Bom.strip(lines.get(0)));
    }
    return lines;
  }
}
