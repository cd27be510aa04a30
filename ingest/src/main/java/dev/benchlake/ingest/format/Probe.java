package dev.benchlake.ingest.format;

import dev.benchlake.warehouse.fs.Storage;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * The first lines of a file (up to {@link #HEAD_BYTES} bytes, the last partial line dropped), for
 * sniffing. Lines have no line ends.
 *
 * @param path the file
 * @param lines its first lines
 * @param hasMapping whether the user gave {@code --mapping} (only then can a file be generic CSV)
 * @param storage where the file is, for formats that look beside it (a mytools result folder)
 */
public record Probe(Path path, List<String> lines, boolean hasMapping, Storage storage) {
  public static final int HEAD_BYTES = 64 * 1024;

  /** A probe of a local file (tests). */
  public Probe(java.nio.file.Path local, List<String> lines, boolean hasMapping) {
    this(Storage.location(local), lines, hasMapping, Storage.on(new org.apache.hadoop.conf.Configuration()));
  }

  /** The first non-blank lines, at most {@code n}. */
  public List<String> nonBlank(int n) {
    return lines.stream().filter(l -> !l.isBlank()).limit(n).toList();
  }

  public String fileName() {
    return path.getName();
  }
}
