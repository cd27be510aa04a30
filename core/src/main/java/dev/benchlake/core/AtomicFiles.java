package dev.benchlake.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Files that readers see whole or not at all, even when the writer dies or the disk fills up. */
public final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Writes {@code text} (UTF-8) to a temporary file beside {@code file} and renames it over
   * {@code file}: a reader sees the old content or the new, never half. When the write fails (a
   * full disk), the temporary file is removed and {@code file} is left as it was.
   */
  public static void writeString(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }
}
