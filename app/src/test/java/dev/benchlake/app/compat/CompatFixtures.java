package dev.benchlake.app.compat;

import dev.benchlake.core.testing.FileTrees;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The frozen fixtures of earlier releases ({@code app/src/test/compat/<release>/}, never
 * modified): tests work on copies. A release's {@code warehouse/} is also a ready warehouse for a
 * test that must start no Spark session: 0.3.0's is of this build's format.
 */
public final class CompatFixtures {
  /** {@code app/src/test/compat}. */
  public static final Path COMPAT = Path.of(System.getProperty("benchlake.app.dir", "target")).toAbsolutePath().getParent()
      .resolve("src/test/compat");

  private CompatFixtures() {}

  /** A copy of {@code release}'s {@code fixture} ({@code warehouse}, {@code run}) at {@code to}. */
  public static Path copy(String release, String fixture, Path to) throws IOException {
    return FileTrees.copy(COMPAT.resolve(release).resolve(fixture), to);
  }
}
