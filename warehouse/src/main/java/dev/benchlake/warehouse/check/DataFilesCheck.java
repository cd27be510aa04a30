package dev.benchlake.warehouse.check;

import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The data files a table's current version names (its Delta log's add actions, as Delta Kernel
 * lists them) against the folder: each must be there with the size the log recorded. One listing
 * of the table's folder, no file read: cheap enough for every command to run on the tables it
 * reads, and for {@code ingest} and {@code upgrade} on every table before they write (appending to
 * a table that lost a file would hide the loss under a new version).
 */
public final class DataFilesCheck {
  private DataFilesCheck() {}

  /** A data file as the log names it: its full path (a URI) and the size recorded. */
  public record NamedFile(String path, long bytes) {}

  /** Each named file that is missing or of another size, in the order given. */
  public static List<WarehouseProblem> problems(Storage storage, Path table, List<NamedFile> named) throws IOException {
    Map<String, Long> present = new HashMap<>();
    String folder = Storage.qualified(table);
    if (!named.isEmpty()) {
      for (FileStatus entry : storage.list(table)) {
        if (entry.isFile()) {
          present.put(entry.getPath().getName(), entry.getLen());
        }
      }
    }
    List<WarehouseProblem> problems = new ArrayList<>();
    for (NamedFile file : named) {
      Path path = new Path(file.path());
      Long bytes = path.getParent() != null && Storage.qualified(path.getParent()).equals(folder)
          ? present.get(path.getName())
          // In a sub-folder (a partitioned table; benchlake writes none): a look of its own.
          : storage.status(shown(path)).map(FileStatus::getLen).orElse(null);
      if (bytes == null) {
        problems.add(new WarehouseProblem(shown(path).toString(), "missing, yet the Delta log of " + table.getName()
            + " names it (" + file.bytes() + " bytes) as part of the table: deleted or moved away"));
      } else if (bytes != file.bytes()) {
        problems.add(new WarehouseProblem(shown(path).toString(), bytes + " bytes where the Delta log of "
            + table.getName() + " recorded " + file.bytes() + ": cut short or replaced"));
      }
    }
    return problems;
  }

  /** A local file as its plain path (as benchlake shows local paths), a remote one as its URI. */
  private static Path shown(Path path) {
    return Storage.isLocal(path) ? new Path(path.toUri().getPath()) : path;
  }
}
