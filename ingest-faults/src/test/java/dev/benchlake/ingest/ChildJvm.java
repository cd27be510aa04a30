package dev.benchlake.ingest;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A java command line for a real child process with this test JVM's classpath and Spark's JVM flags. */
public final class ChildJvm {
  private ChildJvm() {}

  public static List<String> command(Class<?> main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || arg.startsWith("-Dfile.encoding")
          || arg.startsWith("-Djdk.reflect") || arg.startsWith("-Dio.netty")) {
        command.add(arg);
      }
    }
    command.add("-Xmx1g");
    // C1 only: a child lives for one short ingest, and C2's compiler threads competed with it for
    // the two cores (one child ingest of 5,000 lines, loaded machine: 62-84 s -> 23-34 s).
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return command;
  }
}
