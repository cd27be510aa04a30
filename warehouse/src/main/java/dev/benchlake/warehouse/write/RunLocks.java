package dev.benchlake.warehouse.write;

import dev.benchlake.core.Sha256;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.fs.S3Lease;
import dev.benchlake.warehouse.check.WritableWarehouse;
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
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serialises ingests that touch the same run (or the same content) in one warehouse, so that two
 * of them never both decide "not there yet" and write it twice, and so that rows an earlier,
 * killed ingest left behind can be cleaned without racing a live one.
 *
 * <p>A lock is an OS file lock on {@code <warehouse>/_locks/<hash>.lock} (released by the OS when
 * the process dies, even by kill -9) plus an in-JVM lock (file locks are per process). Locks are
 * taken in sorted order, so ingests never deadlock.
 *
 * <p>On HDFS there are no OS locks; the lock is an HDFS lease instead ({@link #leaseLock}): the
 * file is opened for writing and kept open, which HDFS grants to one client at a time; the
 * holder's client renews the lease while it lives, and the NameNode takes it back at most a
 * minute (the lease's soft limit) after a holder was killed, so a killed ingest blocks the next
 * one for that minute at most, never for good. S3 ({@code s3a://}) has neither locks nor leases;
 * there the lock is a lease benchlake keeps itself on S3's conditional PUT ({@link S3Lease}), with
 * the same minute. Other remote file systems get no locks, so ingests into such a warehouse must
 * not run concurrently (docs/guarantees.md says what holds where).
 */
public final class RunLocks implements AutoCloseable {
  private static final ConcurrentHashMap<String, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

  private static final Logger LOG = LoggerFactory.getLogger(RunLocks.class);
  private static final long LEASE_POLL_MS = 500;

  private final List<FileLock> fileLocks = new ArrayList<>();
  /** HDFS lease locks: open files. */
  private final List<FSDataOutputStream> leases = new ArrayList<>();
  /** S3 lease locks. */
  private final List<S3Lease> s3Leases = new ArrayList<>();
  private final List<ReentrantLock> jvmLocks = new ArrayList<>();

  private RunLocks() {}

  /** Takes the locks of {@code names} (blocking until each is free). */
  public static RunLocks acquire(Warehouse warehouse, List<String> names) throws IOException {
    RunLocks locks = new RunLocks();
    Path dir = localDir(warehouse.root());
    if (dir == null) {
      return acquireLeases(warehouse, names, locks);
    }
    createLockFolder(dir, warehouse.root());
    try {
      for (String name : new TreeSet<>(names)) {
        Path file = dir.resolve(Sha256.hex(name).substring(0, 32) + ".lock");
        ReentrantLock jvm = IN_JVM.computeIfAbsent(file.toString(), f -> new ReentrantLock());
        jvm.lock();
        locks.jvmLocks.add(jvm);
        FileChannel channel = openLockFile(file, warehouse.root());
        locks.fileLocks.add(channel.lock());
      }
    } catch (IOException | RuntimeException e) {
      locks.close();
      throw e;
    }
    return locks;
  }

  /** Lease locks on HDFS and S3; none on other remote file systems (see the class comment). */
  private static RunLocks acquireLeases(Warehouse warehouse, List<String> names, RunLocks locks) throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(warehouse.location() + "/_locks");
    FileSystem fs = warehouse.storage().fs(dir);
    if ("s3a".equals(fs.getScheme())) {
      return acquireS3Leases(fs, dir, names, locks);
    }
    if (!"hdfs".equals(fs.getScheme())) {
      return locks;
    }
    fs.mkdirs(dir);
    try {
      for (String name : new TreeSet<>(names)) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, Sha256.hex(name).substring(0, 32) + ".lock");
        // The in-JVM lock first: one JVM's FileSystem is one HDFS client, and HDFS leases are per client.
        ReentrantLock jvm = IN_JVM.computeIfAbsent(file.toString(), f -> new ReentrantLock());
        jvm.lock();
        locks.jvmLocks.add(jvm);
        locks.leases.add(leaseLock(fs, file));
      }
    } catch (IOException | RuntimeException e) {
      locks.close();
      throw e;
    }
    return locks;
  }

  /** One S3 lease per name, each a folder of {@code _locks} ({@link S3Lease}), after the in-JVM lock. */
  private static RunLocks acquireS3Leases(FileSystem fs, org.apache.hadoop.fs.Path dir, List<String> names, RunLocks locks)
      throws IOException {
    try {
      for (String name : new TreeSet<>(names)) {
        org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(dir, Sha256.hex(name).substring(0, 32));
        ReentrantLock jvm = IN_JVM.computeIfAbsent(folder.toString(), f -> new ReentrantLock());
        jvm.lock();
        locks.jvmLocks.add(jvm);
        locks.s3Leases.add(S3Lease.acquire(fs, folder));
      }
    } catch (IOException | RuntimeException e) {
      locks.close();
      throw e;
    }
    return locks;
  }

  /**
   * Holds an HDFS lease on {@code file}: the file opened for writing (created, or appended to when
   * an earlier holder released it) and kept open. The NameNode grants either to one client at a
   * time and refuses the others (AlreadyBeingCreatedException, or RecoveryInProgressException
   * while it takes back the lease of a holder that stopped renewing it): wait and retry. Nothing
   * is ever deleted or overwritten, so no client can break a lease another one holds.
   * Public for the test on a real HDFS (app's HdfsRoundTripIT); callers take {@link #acquire}.
   */
  public static FSDataOutputStream leaseLock(FileSystem fs, org.apache.hadoop.fs.Path file) throws IOException {
    boolean said = false;
    while (true) {
      try {
        return open(fs, file);
      } catch (IOException e) {
        if (!isHeldElsewhere(e)) {
          throw e;
        }
      }
      if (!said) {
        LOG.info("waiting for {}: held by another ingest (HDFS frees the lock of a killed one within a minute)", file);
        said = true;
      }
      try {
        Thread.sleep(LEASE_POLL_MS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while waiting for " + file);
      }
    }
  }

  private static FSDataOutputStream open(FileSystem fs, org.apache.hadoop.fs.Path file) throws IOException {
    try {
      return fs.create(file, false);
    } catch (FileAlreadyExistsException released) {
      return fs.append(file);
    }
  }

  private static boolean isHeldElsewhere(IOException e) {
    String type = e instanceof RemoteException remote ? remote.getClassName() : e.getClass().getName();
    return type.endsWith("AlreadyBeingCreatedException") || type.endsWith("RecoveryInProgressException");
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
        throw WritableWarehouse.notWritable(root, existing, e);
      }
      throw e;
    }
  }

  /** A lock file, created when new; in a lock folder that cannot be written, said as such (see above). */
  private static FileChannel openLockFile(Path file, String root) throws IOException {
    try {
      return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      if (!Files.isWritable(file.getParent())) {
        throw WritableWarehouse.notWritable(root, file.getParent(), e);
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
    for (int i = leases.size() - 1; i >= 0; i--) {
      try {
        // Closing ends the lease; the file stays for the next holder to append to.
        leases.get(i).close();
      } catch (IOException e) {
        // the NameNode takes the lease back within its soft limit anyway
      }
    }
    leases.clear();
    for (int i = s3Leases.size() - 1; i >= 0; i--) {
      try {
        s3Leases.get(i).close();
      } catch (IOException e) {
        // not freed: the next holder takes it when the lease runs out
      }
    }
    s3Leases.clear();
    for (int i = jvmLocks.size() - 1; i >= 0; i--) {
      jvmLocks.get(i).unlock();
    }
    jvmLocks.clear();
  }
}
