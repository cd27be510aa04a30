package dev.benchlake.ingest.source;

import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * One walk of the folder trees an ingest reads, on which every real file and folder is met once
 * however many names it has: the walk remembers what it met by {@link Storage.Entry#identity}
 * (a local entry's real path), so symbolic links can neither loop (a link to a folder that holds it
 * made the walk run for ever) nor read a file twice.
 *
 * <p>Names are chosen in a fixed order: whatever the caller {@link #claim claims} first (the paths a
 * user named), then each walked folder's own entries, in name order; links are followed only after
 * every entry that is not a link, across all the folders walked (see {@link #finish}), so a file is
 * read under its own name, not under a link's. A link to something met already, or that leads
 * nowhere, is not followed: it is said to the visitor ({@link Visitor#notFollowed}), once per link.
 *
 * <p>Not thread-safe; one per walk.
 */
public final class FileTree {
  /** What a walk does with what it meets. */
  public interface Visitor {
    /**
     * Whether to leave {@code entry} out of the walk before anything else (a hidden file or folder,
     * which the visitor lists itself): it is then not claimed, so another name of it may still be read.
     */
    default boolean skip(Storage.Entry entry) throws IOException {
      return false;
    }

    /** Whether to walk into a folder met for the first time (false: the visitor takes it as a whole). */
    boolean enter(Path folder) throws IOException;

    /** A file met for the first time. */
    void file(Path file) throws IOException;

    /**
     * A link that is not followed, and why, in words that end the line
     * ({@code "a link to X, which holds it (a loop); not followed"}).
     */
    void notFollowed(Path link, String why);
  }

  private final Storage storage;
  /** Identity → the name it was first met under. */
  private final Map<String, Path> met = new HashMap<>();
  /** Links met in folders, followed once every entry that is not a link has been. */
  private final Deque<Pending> links = new ArrayDeque<>();

  private record Pending(Storage.Entry entry, Visitor visitor) {}

  public FileTree(Storage storage) {
    this.storage = storage;
  }

  /**
   * Claims {@code path} (a file or folder the user named) under this name.
   *
   * @return the name it was claimed under before, when it was (another name of the same file or folder)
   */
  public Optional<Path> claim(Path path) {
    Optional<String> identity = storage.identity(path);
    return identity.isEmpty() ? Optional.empty() : Optional.ofNullable(met.putIfAbsent(identity.get(), path));
  }

  /** Walks {@code folder} (claimed by the caller, or claimed here), leaving the links in it for {@link #finish}. */
  public void walk(Path folder, Visitor visitor) throws IOException {
    claim(folder);
    for (Storage.Entry entry : storage.entries(folder)) {
      if (visitor.skip(entry)) {
        continue;
      }
      if (entry.isLink()) {
        links.add(new Pending(entry, visitor));
      } else {
        visit(entry, visitor);
      }
    }
  }

  /** Follows the links met so far (and those met in the folders they lead to), each to what was not met before. */
  public void finish() throws IOException {
    while (!links.isEmpty()) {
      Pending next = links.removeFirst();
      visit(next.entry(), next.visitor());
    }
  }

  private void visit(Storage.Entry entry, Visitor visitor) throws IOException {
    if (entry.status() == null) {
      visitor.notFollowed(entry.path(), "a link to " + target(entry) + ", which leads nowhere (missing, or links that"
          + " loop); not read");
      return;
    }
    Path first = met.putIfAbsent(entry.identity(), entry.path());
    if (first != null && first.equals(entry.path())) {
      return; // a folder named, met again walking a folder named before it
    }
    if (first != null) {
      visitor.notFollowed(entry.path(), entry.status().isDirectory() && holds(entry)
          ? "a link to " + first + ", which holds it (a loop); not followed"
          : metBefore(first, entry.status().isDirectory()));
      return;
    }
    if (entry.status().isDirectory()) {
      if (visitor.enter(entry.path())) {
        walk(entry.path(), visitor);
      }
    } else if (entry.status().isFile()) {
      visitor.file(entry.path());
    }
  }

  /** Why a second name of something met under {@code first} is not read: the words of every such line. */
  public static String metBefore(Path first, boolean folder) {
    return folder ? "a link to " + first + ", which is read under that name; not followed"
        : "the same file as " + first + ", which is read under that name; not read again";
  }

  /** Whether a link to a folder lies inside that folder (its real parent is the folder or under it). */
  private boolean holds(Storage.Entry link) {
    Optional<String> parent = storage.identity(link.path().getParent());
    return parent.isPresent() && (parent.get().equals(link.identity()) || parent.get().startsWith(link.identity() + "/"));
  }

  /** The link's target as a location (a relative one resolved against the link's folder). */
  private static String target(Storage.Entry link) {
    java.nio.file.Path target = java.nio.file.Path.of(link.link());
    return target.isAbsolute() ? target.normalize().toString()
        : java.nio.file.Path.of(link.path().getParent().toUri().getPath()).resolve(target).normalize().toString();
  }

  /** The files under {@code dir}, at any depth, each real file once (a hidden folder's count, for a summary). */
  public static int countFiles(Path dir, Storage storage) throws IOException {
    int[] n = {0};
    FileTree tree = new FileTree(storage);
    tree.walk(dir, new Visitor() {
      @Override
      public boolean enter(Path folder) {
        return true;
      }

      @Override
      public void file(Path file) {
        n[0]++;
      }

      @Override
      public void notFollowed(Path link, String why) {}
    });
    tree.finish();
    return n[0];
  }
}
