package dev.benchlake.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one golden-file mechanism: a golden file seals an output format byte for byte, kept as a
 * test resource. After an intended change of the format, run the tests with
 * {@code -Dbenchlake.golden.update=true}: they rewrite the files in the source tree and fail (an
 * updating run is never mistaken for a passing one); review the diff and run again without it.
 *
 * <p>Names resolve as {@link Class#getResource} does: relative to the owner's package, or from the
 * resource root with a leading {@code /}. The source tree written to is the owner's module,
 * found from where its compiled test classes are ({@code MODULE/target/test-classes}), never from
 * the working directory, which differs between an IDE, Maven and a reactor build.
 */
public final class Golden {
  /** The system property that switches to update mode. */
  public static final String UPDATE_PROPERTY = "benchlake.golden.update";

  private Golden() {}

  /** Whether this run rewrites the golden files instead of checking them. */
  public static boolean updating() {
    return Boolean.getBoolean(UPDATE_PROPERTY);
  }

  /**
   * Checks {@code actual} against the golden file {@code name} of {@code owner}, or rewrites it in
   * update mode (then call {@link #failIfUpdated} once the test has written all of its files).
   */
  public static void check(Class<?> owner, String name, String actual) throws IOException {
    if (updating()) {
      Path file = sourceFile(owner, name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    try (InputStream in = owner.getResourceAsStream(name)) {
      assertThat(in).as("golden file " + name + " (create it with -D" + UPDATE_PROPERTY + "=true)").isNotNull();
      assertThat(actual).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** {@link #check} and, in update mode, {@link #failIfUpdated}: for a test with one golden file. */
  public static void checkOnly(Class<?> owner, String name, String actual) throws IOException {
    check(owner, name, actual);
    failIfUpdated(name);
  }

  /** Fails after an update, so that an updating run is never mistaken for a passing one. */
  public static void failIfUpdated(String what) {
    if (updating()) {
      fail("updated the golden files of " + what + ": review the diff and run again without -D" + UPDATE_PROPERTY);
    }
  }

  /**
   * A folder of test resources of {@code owner}'s module in the source tree (named as
   * {@link #check} names files), for generators that rewrite fixtures there.
   */
  public static Path sourceDirectory(Class<?> owner, String name) {
    return sourceFile(owner, name);
  }

  /** Where golden file {@code name} of {@code owner} lives in the source tree. */
  static Path sourceFile(Class<?> owner, String name) {
    String resource = name.startsWith("/") ? name.substring(1)
        : owner.getPackageName().replace('.', '/') + "/" + name;
    return ModuleDirs.of(owner).resolve("src/test/resources").resolve(resource);
  }
}
