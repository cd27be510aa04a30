package dev.benchlake.app.quickstart;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The quickstart's output folder: {@code runs/} (raw loadgen runs), {@code warehouse/},
 * {@code compare/} and {@code trend/} reports, and a duet's a/a control's comparison, {@code aa/}. Re-running the
 * quickstart keeps a folder it made before (it leaves a marker file): the whole folder is renamed, with the
 * time that earlier quickstart started, before anything is written ({@code quickstart.2026-12-06T16-40-12}), so
 * a second run that is interrupted loses nothing of the first. Any other non-empty folder is refused.
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

  /** The time in a kept folder's name: UTC, no colons (a file name on every system). */
  private static final DateTimeFormatter KEPT_AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss", Locale.ROOT)
      .withZone(ZoneOffset.UTC);

  /**
   * Creates the folder anew: an earlier quickstart's folder is first renamed beside it (one rename on the
   * same file system: no moment without it), named with the time its marker was written.
   *
   * @return where the earlier quickstart's folder now is, if there was one
   */
  Optional<Path> prepare() throws IOException {
    check();
    Optional<Path> kept = Optional.empty();
    if (Files.exists(root.resolve(MARKER))) {
      kept = Optional.of(keepAside());
    }
    Files.createDirectories(runs());
    Files.writeString(root.resolve(MARKER), "made by benchlake quickstart; a new quickstart renames this folder "
        + "with its date and starts afresh\n", java.nio.charset.StandardCharsets.UTF_8);
    return kept;
  }

  private Path keepAside() throws IOException {
    String name = root.getFileName() + "." + KEPT_AT.format(Files.getLastModifiedTime(root.resolve(MARKER)).toInstant());
    Path target = root.resolveSibling(name);
    for (int n = 2; Files.exists(target); n++) {
      target = root.resolveSibling(name + "-" + n);
    }
    return Files.move(root, target, StandardCopyOption.ATOMIC_MOVE);
  }
}
