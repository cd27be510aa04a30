package dev.benchlake.warehouse;

import dev.benchlake.core.Sha256;
import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serialises ingests that touch the same run (or the same content) in one warehouse, so that two
 * of them never both decide "not there yet" and write it twice, and so that rows an earlier,
 * killed ingest left behind can be cleaned without racing a live one.
 *
 * <p>A lock is an OS file lock on {@code <warehouse>/_locks/<hash>.lock} (released by the OS when
 * the process dies, even by kill -9) plus an in-JVM lock (file locks are per process). Locks are
 * taken in sorted order, so ingests never deadlock. Warehouses on a non-local file system
 * (hdfs://, s3a://…) get no locks: there Delta's transaction ids are the only guard.
 */
public final class RunLocks implements AutoCloseable {
  private static final ConcurrentHashMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

  private final List<FileLock> fileLocks = new ArrayList<>();
  private final List<ReentrantLock> jvmLocks = new ArrayList<>();

  private RunLocks() {}

  /** Takes the locks of {@code names} (blocking until each is free). */
  public static RunLocks acquire(Warehouse warehouse, List<String> names) throws IOException {
    RunLocks locks = new RunLocks();
    Path dir = localDir(warehouse.root());
    if (dir == null) {
      return locks;
    }
    createLockFolder(dir, warehouse.root());
    try {
      for (String name : new TreeSet<>(names)) {
        Path file = dir.resolve(Sha256.hex(name).substring(0, 32) + ".lock");
        ReentrantLock jvm = IN_JVM.computeIfAbsent(file, f -> new ReentrantLock());
        jvm.lock();
        locks.jvmLocks.add(jvm);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        locks.fileLocks.add(channel.lock());
      }
    } catch (IOException | RuntimeException e) {
      locks.close();
      throw e;
    }
    return locks;
  }

  /**
   * Creates the lock folder, the first thing an ingest writes: a warehouse folder that cannot be
   * written (read-only file system, permissions) is the user's to fix, said in one line before any
   * work is done.
   */
  private static void createLockFolder(Path dir, String root) throws IOException {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      Path existing = dir.toAbsolutePath();
      while (existing != null && !Files.exists(existing)) {
        existing = existing.getParent();
      }
      if (existing != null && !Files.isWritable(existing)) {
        throw new BadInputException("cannot write into the warehouse " + root + ": " + existing
            + " is not writable (read-only file system or permissions)", e);
      }
      throw e;
    }
  }

  /** The lock folder of a warehouse on the local file system, or null for a remote one. */
  static Path localDir(String root) {
    if (root.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*") && !root.startsWith("file:")) {
      return null;
    }
    String local = root.startsWith("file:") ? root.replaceFirst("^file:(//)?", "") : root;
    return Path.of(local).toAbsolutePath().resolve("_locks");
  }

  @Override
  public void close() {
    for (int i = fileLocks.size() - 1; i >= 0; i--) {
      try {
        fileLocks.get(i).acquiredBy().close();
      } catch (IOException e) {
        // closing the channel releases the lock; nothing more to do if it fails
      }
    }
    fileLocks.clear();
    for (int i = jvmLocks.size() - 1; i >= 0; i--) {
      jvmLocks.get(i).unlock();
    }
    jvmLocks.clear();
  }
}
