package dev.benchlake.warehouse.check;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the commands that write ({@code ingest}, {@code upgrade}) can write into a warehouse
 * folder, asked before they start any work: a read-only file system or missing permissions are
 * the user's to fix (exit 2, one line), not a failure halfway ("…/_locks/….lock: Read-only file
 * system", exit 1). Reading needs none of it: {@code runs}, {@code export}, {@code rejects},
 * {@code compare}, {@code trend} and {@code verify} write nothing into a warehouse.
 *
 * <p>Local folders only: whether a remote file system takes writes shows only when writing.
 */
public final class WritableWarehouse {
  private WritableWarehouse() {}

  /**
   * @param root the warehouse as the user gave it: a local folder (existing or not) or a URI
   * @throws BadInputException naming the folder that cannot be written and why
   */
  public static void require(String root) {
    Path folder = localFolder(root);
    if (folder == null) {
      return;
    }
    for (Path where : writtenFolders(folder)) {
      if (!Files.isWritable(where)) {
        throw notWritable(root, where, null);
      }
    }
  }

  /** The error for a warehouse whose folder {@code where} (or one in it) cannot be written. */
  public static BadInputException notWritable(String root, Path where, Throwable cause) {
    return new BadInputException("the warehouse at " + root + " is read-only (" + why(where) + ": " + where
        + " is not writable); reading it works, adding runs or upgrading it needs it writable: remount it read-write, "
        + "or copy it to a writable folder", cause);
  }

  /**
   * Why a folder the OS says is not writable is not: what creating a file there answers. (Java's
   * {@code FileStore.isReadOnly} looks up the wrong mount for a read-only bind mount of a folder
   * of a writable file system.) A folder that is not writable takes no file, so nothing is written.
   */
  private static String why(Path folder) {
    try {
      Files.delete(Files.createTempFile(folder, ".benchlake-write-probe-", ""));
      return "not writable";
    } catch (AccessDeniedException e) {
      return "no permission to write";
    } catch (FileSystemException e) {
      return e.getReason() != null && e.getReason().contains("Read-only file system") ? "a read-only file system"
          : String.valueOf(e.getReason());
    } catch (IOException e) {
      return String.valueOf(e.getMessage());
    }
  }

  /**
   * The folders a write creates files in, those that exist: the warehouse's own, its lock and
   * format folders, each table's folder and log; where the warehouse does not exist yet, the
   * nearest folder above it that does (the first ingest creates the rest there).
   */
  private static List<Path> writtenFolders(Path folder) {
    List<Path> folders = new ArrayList<>();
    Path existing = folder;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return folders;
    }
    folders.add(existing);
    if (existing.equals(folder)) {
      List<Path> inside = new ArrayList<>(List.of(folder.resolve("_locks"), folder.resolve("_benchlake")));
      for (Table table : Table.values()) {
        inside.add(folder.resolve(table.dirName()));
        inside.add(folder.resolve(table.dirName()).resolve("_delta_log"));
      }
      inside.stream().filter(Files::isDirectory).forEach(folders::add);
    }
    return folders;
  }

  /** The local folder of a warehouse, absolute; null for a remote one. */
  private static Path localFolder(String root) {
    org.apache.hadoop.fs.Path location = Storage.location(root);
    return Storage.isLocal(location) ? Path.of(location.toUri().getPath()) : null;
  }
}
