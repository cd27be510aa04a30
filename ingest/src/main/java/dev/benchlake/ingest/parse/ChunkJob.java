package dev.benchlake.ingest.parse;

import dev.benchlake.ingest.source.ScannedFile;
import java.io.Serializable;

/**
 * One unit of parallel parsing: a chunk of a file and the parser for it (exactly one of
 * {@code lineParser} and {@code documentParser} is set).
 *
 * @param source index of the logical source (run) in the ingest
 * @param file index of the file in its source
 * @param tasksPass false for the accounting pass ({@link ParsedRows#SCHEMA} rows), true for the
 *     task pass ({@link ParsedRows#TASK_SCHEMA} rows)
 */
public record ChunkJob(
    int source, int file, String path, ScannedFile.Chunk chunk, LineParser lineParser, DocumentParser documentParser,
    boolean tasksPass)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public ChunkJob {
    if ((lineParser == null) == (documentParser == null)) {
      throw new IllegalArgumentException("a chunk needs exactly one parser");
    }
  }

  /** Whether the chunk's parser can give task verdicts. */
  public boolean yieldsTasks() {
    return lineParser != null ? lineParser.yieldsTasks() : documentParser.yieldsTasks();
  }

  /** The same chunk for the task pass. */
  public ChunkJob forTasks() {
    return new ChunkJob(source, file, path, chunk, lineParser, documentParser, true);
  }
}
