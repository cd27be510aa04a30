package dev.benchlake.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A java command line for a real child process with this test JVM's classpath and Spark's JVM
 * flags, sharing one class-data-sharing archive with the other children ({@link ChildJvmArchive}).
 */
public final class ChildJvm {
  private static List<String> classPath;

  private ChildJvm() {}

  public static List<String> command(Class<?> main, String... args) {
    return command(ChildJvmArchive.flags(), main, args);
  }

  static List<String> command(List<String> extraFlags, Class<?> main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(baseFlags());
    command.addAll(extraFlags);
    command.add("-cp");
    command.add(String.join(java.io.File.pathSeparator, classPath()));
    command.add(main.getName());
    command.addAll(List.of(args));
    return command;
  }

  static List<String> baseFlags() {
    List<String> flags = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || arg.startsWith("-Dfile.encoding")
          || arg.startsWith("-Djdk.reflect") || arg.startsWith("-Dio.netty")) {
        flags.add(arg);
      }
    }
    flags.add("-Xmx1g");
    // C1 only: a child lives for one short ingest, and C2's compiler threads competed with it for
    // the two cores (one child ingest of 5,000 lines, loaded machine: 62-84 s -> 23-34 s).
    flags.add("-XX:TieredStopAtLevel=1");
    // Spark's code generation as in this JVM (pom.xml: interpreted); Spark reads spark.* properties.
    System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith("spark.sql.codegen."))
        .sorted().forEach(key -> flags.add("-D" + key + "=" + System.getProperty(key)));
    return flags;
  }

  /** This JVM's class path, its directories as jars (a class-data-sharing archive needs jars). */
  static synchronized List<String> classPath() {
    if (classPath == null) {
      try {
        classPath = ChildClassPath.asJars(System.getProperty("java.class.path"), workDir().resolve("classes"));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make the child JVMs' class path", e);
      }
    }
    return classPath;
  }

  /** {@code target/child-jvm} of this module: the archive and the jars of class directories. */
  static Path workDir() {
    try {
      // .../ingest-faults/target/test-classes, or its jar: either way in target/
      Path here = Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return here.getParent().resolve("child-jvm");
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
