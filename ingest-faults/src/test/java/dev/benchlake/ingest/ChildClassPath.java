package dev.benchlake.ingest;

import dev.benchlake.core.Sha256;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * This test JVM's class path as jars only, for child JVMs that share a class-data-sharing archive
 * ({@link ChildJvmArchive}): JDK 17 refuses to dump one when the class path holds a non-empty
 * directory ("Cannot have non-empty directory in paths"), such as this module's test-classes (and,
 * in a `mvn test` run, the other modules' classes too). Each such directory becomes a jar named by
 * a hash of its content, made once: the JVM checks each jar's size and time against the archive,
 * so the same content must stay the same file.
 */
final class ChildClassPath {
  private ChildClassPath() {}

  /** The entries of {@code classPath}, directories replaced by jars in {@code jarDir}. */
  static List<String> asJars(String classPath, Path jarDir) throws IOException {
    List<String> entries = new ArrayList<>();
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry);
      if (entry.isEmpty()) {
        continue; // the working directory to a JVM: never one of ours
      } else if (!Files.isDirectory(path)) {
        entries.add(entry);
      } else if (!isEmpty(path)) {
        entries.add(jarOf(path, jarDir).toString());
      }
    }
    return entries;
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.findAny().isEmpty();
    }
  }

  private static Path jarOf(Path dir, Path jarDir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    MessageDigest digest = Sha256.newDigest();
    for (Path file : files) {
      digest.update(dir.relativize(file).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      digest.update((byte) 0);
      digest.update(Files.readAllBytes(file));
    }
    Path jar = jarDir.resolve(dir.getFileName() + "-" + HexFormat.of().formatHex(digest.digest()).substring(0, 16) + ".jar");
    if (Files.exists(jar)) {
      return jar;
    }
    Files.createDirectories(jarDir);
    // Written aside and moved into place: another test JVM may be making the same jar.
    Path partial = Files.createTempFile(jarDir, "partial-", ".jar");
    try (OutputStream out = Files.newOutputStream(partial); JarOutputStream jarOut = new JarOutputStream(out)) {
      for (Path file : files) {
        jarOut.putNextEntry(new JarEntry(dir.relativize(file).toString().replace(java.io.File.separatorChar, '/')));
        Files.copy(file, jarOut);
        jarOut.closeEntry();
      }
    } catch (IOException | UncheckedIOException e) {
      Files.deleteIfExists(partial);
      throw e;
    }
    try {
      Files.createLink(jar, partial); // never replaces: another JVM's jar keeps the time its archive names
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // made by another test JVM meanwhile, with the same content
    } finally {
      Files.delete(partial);
    }
    return jar;
  }
}
