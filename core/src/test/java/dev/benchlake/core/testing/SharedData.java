package dev.benchlake.core.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real third-party results in {@code ../shared/data} (beside the checkout). They are never
 * copied into the repository; tests that read them skip cleanly when the folder is absent.
 */
public final class SharedData {
  private SharedData() {}

  /** {@code ../shared/data/<relative>}, or the test is skipped (JUnit assumption) when absent. */
  public static Path require(String relative) {
    String shared = System.getProperty("benchlake.shared.dir", "../shared");
    Path path = Path.of(shared, "data", relative).normalize();
    assumeTrue(Files.exists(path), () -> "skipped: " + path + " is not on this machine");
    return path;
  }
}
