package dev.benchlake.ingest.format;

import java.nio.file.Path;
import java.util.List;

/**
 * The first lines of a file (up to {@link #HEAD_BYTES} bytes, the last partial line dropped), for
 * sniffing. Lines have no line ends.
 *
 * @param path the file
 * @param lines its first lines
 * @param hasMapping whether the user gave {@code --mapping} (only then can a file be generic CSV)
 */
public record Probe(Path path, List<String> lines, boolean hasMapping) {
  public static final int HEAD_BYTES = 64 * 1024;

  /** The first non-blank lines, at most {@code n}. */
  public List<String> nonBlank(int n) {
    return lines.stream().filter(l -> !l.isBlank()).limit(n).toList();
  }

  public String fileName() {
    return path.getFileName().toString();
  }
}
