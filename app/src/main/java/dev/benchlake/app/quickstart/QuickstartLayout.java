package dev.benchlake.app.quickstart;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The quickstart's output folder: {@code runs/} (raw loadgen runs), {@code warehouse/},
 * {@code compare/} and {@code trend/} reports, and a duet's a/a control's comparison, {@code aa/}. Re-running the quickstart replaces a folder it made
 * before (it leaves a marker file) and refuses to touch any other non-empty folder.
 */
public record QuickstartLayout(Path root) {
  static final String MARKER = ".benchlake-quickstart";

  public Path runs() {
    return root.resolve("runs");
  }

  public Path warehouse() {
    return root.resolve("warehouse");
  }

  public Path compare() {
    return root.resolve("compare");
  }

  /** A duet's a/a control: the baseline against itself. */
  public Path aa() {
    return root.resolve("aa");
  }

  public Path trend() {
    return root.resolve("trend");
  }

  /**
   * Checks, writing nothing, that {@link #prepare} may use the folder: absent, empty, or made by an
   * earlier quickstart (whose contents it replaces).
   */
  void check() {
    if (!Files.exists(root)) {
      return;
    }
    if (!Files.isDirectory(root)) {
      throw new BadInputException(root + " is a file, not a folder");
    }
    boolean empty;
    try (Stream<Path> entries = Files.list(root)) {
      empty = entries.findAny().isEmpty();
    } catch (IOException e) {
      throw new BadInputException(root + ": " + e.getMessage(), e);
    }
    if (!empty && !Files.exists(root.resolve(MARKER))) {
      throw new BadInputException(root + " is not empty and was not made by the quickstart; choose another --out");
    }
  }

  /** Empties (or creates) the folder. */
  void prepare() throws IOException {
    check();
    if (Files.exists(root)) {
      deleteContents(root);
    }
    Files.createDirectories(runs());
    Files.writeString(root.resolve(MARKER), "made by benchlake quickstart; it replaces this folder when run again\n",
        java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void deleteContents(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        if (!p.equals(dir)) {
          Files.delete(p);
        }
      }
    }
  }
}
