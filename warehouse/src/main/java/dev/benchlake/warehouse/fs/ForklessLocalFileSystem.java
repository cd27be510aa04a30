package dev.benchlake.warehouse.fs;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file:}), but without the processes it starts: without its
 * native library (which neither Spark nor benchlake ships), Hadoop runs {@code chmod} for every
 * file or folder it creates with a permission and {@code readlink} for every rename through
 * {@code FileContext}, which is how Delta commits on a local file system: about five processes per
 * commit. Started from a JVM of a few GB on a loaded 2-core machine they cost 0.1-0.3 s each: a
 * tiny ingest and its re-ingest took 2.6-2.8 s with them and 1.3-1.6 s without (load 10, alternated
 * in one JVM).
 * Here the permission is set and the link read through {@code java.nio}, with the same result;
 * what {@code java.nio} cannot say alike (a sticky bit, a file system without POSIX permissions, a
 * symbolic link's status) is still Hadoop's own.
 *
 * <p>{@code SparkSessions} sets it for local sessions ({@code fs.file.impl}, and {@link ForklessLocalFs}
 * as {@code fs.AbstractFileSystem.file.impl} for {@code FileContext}); a {@code --conf} of those wins.
 */
public class ForklessLocalFileSystem extends LocalFileSystem {
  public ForklessLocalFileSystem() {
    super(new Raw());
  }

  /** The raw (checksum-less) local file system underneath, shared with {@link ForklessLocalFs}. */
  public static class Raw extends RawLocalFileSystem {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      if (!POSIX || permission.getStickyBit()) {
        super.setPermission(p, permission);
        return;
      }
      // FsPermission's rwx string without the sticky bit is exactly java.nio's form.
      Files.setPosixFilePermissions(pathToFile(p).toPath(), PosixFilePermissions.fromString(permission.toString()));
    }

    /** A file or folder that is no symbolic link: its status, as Hadoop's gives it after readlink said so. */
    @Override
    public FileStatus getFileLinkStatus(Path f) throws IOException {
      if (Files.isSymbolicLink(pathToFile(f).toPath())) {
        return super.getFileLinkStatus(f);
      }
      return getFileStatus(f);
    }
  }
}
