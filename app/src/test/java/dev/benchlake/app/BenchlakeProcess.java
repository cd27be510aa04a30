package dev.benchlake.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/benchlake} as a user runs it: a real process with its own environment, its stdout and
 * stderr (where every log goes) captured whole. For end-to-end checks after {@code mvn package}.
 */
final class BenchlakeProcess {
  private BenchlakeProcess() {}

  record Result(int exitCode, String stdout, String stderr) {
    String both() {
      return stdout + stderr;
    }
  }

  static Path launcher() {
    Path appTarget = Path.of(System.getProperty("benchlake.app.dir", "target")).toAbsolutePath();
    return appTarget.getParent().getParent().resolve("bin").resolve("benchlake");
  }

  /**
   * Runs {@code benchlake args…} in the folder {@code workDir} (where Spark may leave files), with
   * {@code env} added to (or, for a null value, removed from) this JVM's environment.
   */
  static Result run(Path workDir, Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(launcher().toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
    for (String name : List.of("PGPASSWORD", "PGPASSFILE", "BENCHLAKE_DEBUG")) {
      pb.environment().remove(name);
    }
    env.forEach((k, v) -> {
      if (v == null) {
        pb.environment().remove(k);
      } else {
        pb.environment().put(k, v);
      }
    });
    Path out = Files.createTempFile("benchlake-out-", ".txt");
    Path err = Files.createTempFile("benchlake-err-", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(600, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("benchlake " + String.join(" ", args) + " did not end in 600 s");
    }
    Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return r;
  }
}
