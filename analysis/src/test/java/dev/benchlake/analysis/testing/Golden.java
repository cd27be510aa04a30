package dev.benchlake.analysis.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files that seal an output format byte for byte, kept as test resources beside the test
 * class. After an intended change of the format, regenerate them with
 * {@code -Dbenchlake.golden.update=true} and review the diff.
 */
public final class Golden {
  private Golden() {}

  /** Whether this run rewrites the golden files instead of checking them. */
  public static boolean updating() {
    return Boolean.getBoolean("benchlake.golden.update");
  }

  /** Checks {@code actual} against the golden file {@code name} of {@code owner}'s package, or rewrites it. */
  public static void check(Class<?> owner, String name, String actual) throws IOException {
    if (updating()) {
      Path file = Path.of(System.getProperty("basedir", "."), "src/test/resources",
          owner.getPackageName().replace('.', '/'), name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    try (InputStream in = owner.getResourceAsStream(name)) {
      assertThat(in).as("golden file " + name + " (create it with -Dbenchlake.golden.update=true)").isNotNull();
      assertThat(actual).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** Fails after an update, so that an updating run is never mistaken for a passing one. */
  public static void failIfUpdated(String what) {
    if (updating()) {
      fail("updated the golden files of " + what + ": review the diff and run again without -Dbenchlake.golden.update");
    }
  }
}
