package dev.benchlake.ingest;

import dev.benchlake.core.Labels;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Consumer;

/**
 * What to ingest and how ({@code benchlake ingest}'s options, for callers in the same JVM such as
 * {@code quickstart}).
 *
 * @param paths files and directories (loadgen run directories, or folders of result files)
 * @param format {@code auto} or a format name (see {@link dev.benchlake.ingest.format.Formats})
 * @param mapping the CSV mapping file (JSON or YAML), or null
 * @param step the step name for sources that do not name it (sysbench, pgbench), or null
 * @param labels {@code --label key=value}: they override what a source says
 * @param replace re-ingest sources already in the warehouse (their runs are replaced)
 * @param chunkBytes size of the byte ranges large files are split into for parallel parsing
 * @param messages receives one-line notes for the user (format chosen by auto, already ingested…)
 * @param pathLabels {@code --label-from-path}: labels read from each source's path
 */
public record IngestRequest(
    List<Path> paths,
    String format,
    Path mapping,
    String step,
    SortedMap<String, String> labels,
    boolean replace,
    long chunkBytes,
    Consumer<String> messages,
    PathLabels pathLabels) {

  public static final String AUTO = "auto";
  /** 32 MiB: several chunks per core for a file of a few hundred MB, little overhead per chunk. */
  public static final long DEFAULT_CHUNK_BYTES = 32L << 20;

  public IngestRequest {
    paths = List.copyOf(paths);
    format = format == null ? AUTO : format;
    labels = Labels.copyOf(labels == null ? Map.of() : labels);
    if (chunkBytes <= 0) {
      throw new IllegalArgumentException("chunkBytes must be positive");
    }
    messages = messages == null ? m -> { } : messages;
    pathLabels = pathLabels == null ? PathLabels.NONE : pathLabels;
  }

  /** Without labels from paths. */
  public IngestRequest(List<Path> paths, String format, Path mapping, String step, SortedMap<String, String> labels,
      boolean replace, long chunkBytes, Consumer<String> messages) {
    this(paths, format, mapping, step, labels, replace, chunkBytes, messages, PathLabels.NONE);
  }

  /** Auto-detected formats, default chunks, no labels, notes dropped. */
  public static IngestRequest of(Path... paths) {
    return new IngestRequest(List.of(paths), AUTO, null, null, null, false, DEFAULT_CHUNK_BYTES, null);
  }

  public IngestRequest withFormat(String newFormat) {
    return new IngestRequest(paths, newFormat, mapping, step, labels, replace, chunkBytes, messages, pathLabels);
  }

  public IngestRequest withMapping(Path newMapping) {
    return new IngestRequest(paths, format, newMapping, step, labels, replace, chunkBytes, messages, pathLabels);
  }

  public IngestRequest withStep(String newStep) {
    return new IngestRequest(paths, format, mapping, newStep, labels, replace, chunkBytes, messages, pathLabels);
  }

  public IngestRequest withLabels(Map<String, String> newLabels) {
    return new IngestRequest(paths, format, mapping, step, Labels.copyOf(newLabels), replace, chunkBytes, messages, pathLabels);
  }

  public IngestRequest withReplace(boolean newReplace) {
    return new IngestRequest(paths, format, mapping, step, labels, newReplace, chunkBytes, messages, pathLabels);
  }

  public IngestRequest withChunkBytes(long newChunkBytes) {
    return new IngestRequest(paths, format, mapping, step, labels, replace, newChunkBytes, messages, pathLabels);
  }

  public IngestRequest withMessages(Consumer<String> newMessages) {
    return new IngestRequest(paths, format, mapping, step, labels, replace, chunkBytes, newMessages, pathLabels);
  }

  public IngestRequest withPathLabels(PathLabels newPathLabels) {
    return new IngestRequest(paths, format, mapping, step, labels, replace, chunkBytes, messages, newPathLabels);
  }
}
