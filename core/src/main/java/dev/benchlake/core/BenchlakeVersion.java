package dev.benchlake.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build and the git commit it was built from (filled in by Maven). */
public final class BenchlakeVersion {
  private static final Properties PROPERTIES = load();

  private BenchlakeVersion() {}

  /** The Maven version, e.g. {@code 0.3.0-SNAPSHOT}. */
  public static String version() {
    return PROPERTIES.getProperty("version", "unknown");
  }

  /** The abbreviated git SHA of the build, or {@code unknown} when built outside git. */
  public static String gitSha() {
    String sha = PROPERTIES.getProperty("git.sha", "");
    return sha.isBlank() || sha.startsWith("${") ? "unknown" : sha;
  }

  /** One line for {@code --version} and for manifests: {@code benchlake 0.1.0 (git abc123)}. */
  public static String describe() {
    return "benchlake " + version() + " (git " + gitSha() + ")";
  }

  private static Properties load() {
    Properties properties = new Properties();
    try (InputStream in = BenchlakeVersion.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties;
  }
}
