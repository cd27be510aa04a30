package dev.benchlake.ingest.source;

import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Counts of folder trees, for the summary of what an ingest did not read. */
public final class FileTree {
  private FileTree() {}

  /** The files under {@code dir}, at any depth. */
  public static int countFiles(Path dir, Storage storage) throws IOException {
    int n = 0;
    for (FileStatus entry : storage.list(dir)) {
      n += entry.isDirectory() ? countFiles(entry.getPath(), storage) : entry.isFile() ? 1 : 0;
    }
    return n;
  }
}
