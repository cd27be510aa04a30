package dev.benchlake.ingest;

import dev.benchlake.core.Labels;
import dev.benchlake.ingest.format.PlanContext;
import dev.benchlake.warehouse.fs.Storage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Consumer;

/**
 * What to ingest and how ({@code benchlake ingest}'s options, for callers in the same JVM such as
 * {@code quickstart}).
 *
 * @param inputs files and directories (loadgen run directories, or folders of result files) as the
 *     user named them: local paths or URIs ({@code hdfs://}, {@code s3a://}, {@code file:}); see
 *     {@link Storage#location}
 * @param format {@code auto} or a format name (see {@link dev.benchlake.ingest.format.Formats})
 * @param mapping the CSV mapping file (JSON or YAML), a local path or a URI, or null
 * @param step the step name for sources that do not name it (sysbench, pgbench), or null
 * @param labels {@code --label key=value}: they override what a source says
 * @param replace re-ingest sources already in the warehouse (their runs are replaced)
 * @param chunkBytes size of the byte ranges large files are split into for parallel parsing
 * @param messages receives one-line notes for the user (format chosen by auto, already ingested…)
 * @param pathLabels {@code --label-from-path}: labels read from each source's path
 * @param storage the file systems the inputs are read from: {@link Ingest#run} puts its Spark
 *     session's Hadoop configuration here; without a session (planning in tests), the default one
 * @param liveProgress on a terminal, where the parsing's live progress line is drawn (each call
 *     redraws it, null ends it); null elsewhere: progress then goes to {@code messages} every few
 *     seconds ({@link ParseProgress})
 */
public record IngestRequest(
    List<String> inputs,
    String format,
    String mapping,
    String step,
    SortedMap<String, String> labels,
    boolean replace,
    long chunkBytes,
    Consumer<String> messages,
    PathLabels pathLabels,
    Storage storage,
    Consumer<String> liveProgress) {

  public static final String AUTO = "auto";
  /** 32 MiB: several chunks per core for a file of a few hundred MB, little overhead per chunk. */
  public static final long DEFAULT_CHUNK_BYTES = 32L << 20;

  public IngestRequest {
    inputs = List.copyOf(inputs);
    format = format == null ? AUTO : format;
    labels = Labels.copyOf(labels == null ? Map.of() : labels);
    if (chunkBytes <= 0) {
      throw new IllegalArgumentException("chunkBytes must be positive");
    }
    messages = messages == null ? m -> { } : messages;
    pathLabels = pathLabels == null ? PathLabels.NONE : pathLabels;
    storage = storage == null ? Storage.on(new org.apache.hadoop.conf.Configuration()) : storage;
  }

  /** Local files and folders, without labels from paths (in-process callers: quickstart, tests). */
  public IngestRequest(List<Path> paths, String format, Path mapping, String step, SortedMap<String, String> labels,
      boolean replace, long chunkBytes, Consumer<String> messages) {
    this(paths.stream().map(Path::toString).toList(), format, mapping == null ? null : mapping.toString(), step,
        labels, replace, chunkBytes, messages, PathLabels.NONE, null, null);
  }

  /** Auto-detected formats, default chunks, no labels, notes dropped. */
  public static IngestRequest of(Path... paths) {
    return new IngestRequest(List.of(paths), AUTO, null, null, null, false, DEFAULT_CHUNK_BYTES, null);
  }

  /** {@link #of(Path...)} for locations given as text (local paths or URIs). */
  public static IngestRequest of(String... inputs) {
    return new IngestRequest(List.of(inputs), AUTO, null, null, null, false, DEFAULT_CHUNK_BYTES, null, null, null, null);
  }

  /** What the formats may know of this request while they plan its sources. */
  public PlanContext planContext() {
    return new PlanContext(storage, step, mapping, labels, messages);
  }

  public IngestRequest withFormat(String newFormat) {
    return new IngestRequest(inputs, newFormat, mapping, step, labels, replace, chunkBytes, messages, pathLabels, storage, liveProgress);
  }

  public IngestRequest withMapping(Path newMapping) {
    return withMapping(newMapping == null ? (String) null : newMapping.toString());
  }

  public IngestRequest withMapping(String newMapping) {
    return new IngestRequest(inputs, format, newMapping, step, labels, replace, chunkBytes, messages, pathLabels, storage, liveProgress);
  }

  public IngestRequest withStorage(Storage newStorage) {
    return new IngestRequest(inputs, format, mapping, step, labels, replace, chunkBytes, messages, pathLabels, newStorage, liveProgress);
  }

  public IngestRequest withLabels(Map<String, String> newLabels) {
    return new IngestRequest(inputs, format, mapping, step, Labels.copyOf(newLabels), replace, chunkBytes, messages, pathLabels, storage, liveProgress);
  }

  public IngestRequest withReplace(boolean newReplace) {
    return new IngestRequest(inputs, format, mapping, step, labels, newReplace, chunkBytes, messages, pathLabels, storage, liveProgress);
  }

  public IngestRequest withChunkBytes(long newChunkBytes) {
    return new IngestRequest(inputs, format, mapping, step, labels, replace, newChunkBytes, messages, pathLabels, storage, liveProgress);
  }

  public IngestRequest withMessages(Consumer<String> newMessages) {
    return new IngestRequest(inputs, format, mapping, step, labels, replace, chunkBytes, newMessages, pathLabels, storage, liveProgress);
  }

  public IngestRequest withPathLabels(PathLabels newPathLabels) {
    return new IngestRequest(inputs, format, mapping, step, labels, replace, chunkBytes, messages, newPathLabels, storage, liveProgress);
  }
}
