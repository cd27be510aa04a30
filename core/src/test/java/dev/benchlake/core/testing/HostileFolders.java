package dev.benchlake.core.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Folders where benchlake cannot write its output, made for real: a tiny tmpfs that fills up (the
 * kernel answers "No space left on device") and a read-only folder. Mounting needs root (CI and
 * this machine run tests as root); where it is not possible the test is skipped (JUnit
 * assumption), or, for a read-only folder, made with {@code chmod}. As root, {@code chmod} stops nothing, which is why the read-only folder is a
 * read-only mount there and a {@code chmod 555} folder only for other users.
 */
public final class HostileFolders {
  private HostileFolders() {}

  /** A folder to use, unmounted (or made writable again) by {@link #close}. */
  public record Folder(Path path, boolean mounted) implements AutoCloseable {
    /** Gives a {@link #fullDisk} room again: the same files on a bigger file system. */
    public void resize(long sizeBytes) throws IOException {
      if (!mounted || !run("mount", "-o", "remount,size=" + sizeBytes, path.toString())) {
        throw new IOException("cannot resize the file system at " + path);
      }
    }

    @Override
    public void close() throws IOException {
      if (mounted) {
        // Lazy: a file a failed writer still holds open must not keep the mount (or the test) alive.
        run("umount", "-l", path.toString());
      } else {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
      }
    }
  }

  /**
   * A new folder {@code parent/name} on a file system of {@code sizeBytes} (rounded up to whole
   * pages by the kernel): whatever is written beyond fails with ENOSPC.
   */
  public static Folder fullDisk(Path parent, String name, long sizeBytes) throws IOException {
    Path path = Files.createDirectories(parent.resolve(name));
    assumeTrue(mountTmpfs(path, "size=" + sizeBytes + ",mode=0777"),
        () -> "skipped: cannot mount a tmpfs at " + path + " (needs root)");
    return new Folder(path, true);
  }

  /** A new, empty, read-only folder {@code parent/name}: creating anything in it fails. */
  public static Folder readOnly(Path parent, String name) throws IOException {
    Path path = Files.createDirectories(parent.resolve(name));
    if (mountTmpfs(path, "ro,size=4k,mode=0555")) {
      return new Folder(path, true);
    }
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("r-xr-xr-x"));
    Folder folder = new Folder(path, false);
    boolean refused = refusesWrites(path);
    if (!refused) {
      folder.close();
    }
    assumeTrue(refused, () -> "skipped: cannot make " + path + " read-only");
    return folder;
  }

  /**
   * {@code source} seen read-only at a new folder {@code parent/name}: a read-only bind mount of it
   * (a warehouse on a read-only file system); without root, a copy whose folders are {@code chmod
   * 555} and files {@code 444}. Skipped (JUnit assumption) when neither stops a write.
   */
  public static Folder readOnlyView(Path source, Path parent, String name) throws IOException {
    Path path = Files.createDirectories(parent.resolve(name));
    if (bindReadOnly(source, path)) {
      return new Folder(path, true);
    }
    List<Path> entries = new ArrayList<>();
    try (java.util.stream.Stream<Path> walk = Files.walk(source)) {
      walk.forEach(entries::add);
    }
    for (Path from : entries) {
      Path to = path.resolve(source.relativize(from).toString());
      if (Files.isDirectory(from)) {
        Files.createDirectories(to);
      } else {
        Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    // Deepest first: a folder is made read-only after everything in it.
    for (int i = entries.size() - 1; i >= 0; i--) {
      Path to = path.resolve(source.relativize(entries.get(i)).toString());
      Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(Files.isDirectory(to) ? "r-xr-xr-x" : "r--r--r--"));
    }
    assumeTrue(refusesWrites(path), () -> "skipped: cannot make " + path + " read-only");
    return new Folder(path, false);
  }

  /** Whether creating a file in {@code folder} fails (a file it did create is removed). */
  private static boolean refusesWrites(Path folder) {
    try {
      Files.delete(Files.createFile(folder.resolve("probe")));
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static boolean bindReadOnly(Path source, Path path) {
    try {
      if (!run("mount", "--bind", source.toString(), path.toString())) {
        return false;
      }
      if (run("mount", "-o", "remount,bind,ro", path.toString())) {
        return true;
      }
      run("umount", "-l", path.toString());
      return false;
    } catch (IOException e) {
      return false; // no mount command
    }
  }

  private static boolean mountTmpfs(Path path, String options) {
    try {
      return run("mount", "-t", "tmpfs", "-o", options, "benchlake-test", path.toString());
    } catch (IOException e) {
      return false; // no mount command
    }
  }

  private static boolean run(String... command) throws IOException {
    List<String> args = new ArrayList<>(List.of(command));
    Process p = new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return p.exitValue() == 0;
  }
}
