package dev.benchlake.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The one way tests run a benchlake command: its exit code and what it wrote to stdout and stderr.
 * {@link #of} runs a picocli command in-process through {@link Cli#commandLine}, as the launcher
 * does; {@link #benchlake} runs {@code bin/benchlake} as a user does, a real process (integration
 * tier: it starts a JVM).
 */
public record CommandRun(int exitCode, String stdout, String stderr) {
  /** Variables of this JVM's environment that would change what a child benchlake does. */
  private static final List<String> SCRUBBED_ENV = List.of("PGPASSWORD", "PGPASSFILE", "BENCHLAKE_DEBUG");
  private static final Duration PROCESS_LIMIT = Duration.ofSeconds(600);
  /**
   * JVM flags a child bin/benchlake gets in tests, after any BENCHLAKE_JAVA_OPTS of this JVM's
   * environment, unless the test names BENCHLAKE_JAVA_OPTS itself. C1 only, like the test JVMs
   * (test.jvm.flags): a test's command reads a few files and exits, and C2's compiles were a third
   * of such a JVM's CPU (an ingest of one sysbench file: 16 CPU-s with C2, 9 without); on 2 cores
   * they compete with the rest of the suite. What a command does and writes does not depend on it.
   */
  static final String CHILD_JVM_OPTS = "-XX:TieredStopAtLevel=1";

  public static CommandRun of(Object command, String... args) {
    return of(Cli.commandLine(command), args);
  }

  /** A command line already set up (e.g. benchlake's root command with its subcommands). */
  public static CommandRun of(CommandLine cl, String... args) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    cl.setOut(new PrintWriter(stdout, true));
    cl.setErr(new PrintWriter(stderr, true));
    int code = cl.execute(args);
    return new CommandRun(code, stdout.toString(), stderr.toString());
  }

  /**
   * A command that writes its data to a stream of its own rather than to picocli's writer (export's
   * {@code --out -}): made by {@code command} on a buffer, and that buffer, read as UTF-8, is the
   * run's stdout.
   */
  public static CommandRun writingTo(Function<OutputStream, Object> command, String... args) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    CommandRun run = of(command.apply(data), args);
    return new CommandRun(run.exitCode(), data.toString(StandardCharsets.UTF_8), run.stderr());
  }

  public static CommandRun of(Object command, List<String> args) {
    return of(command, args.toArray(String[]::new));
  }

  /**
   * Runs {@code bin/benchlake args…} of the repository that {@code owner} (a test class) belongs
   * to, after {@code mvn package}, in the folder {@code workDir} (where Spark may leave files), with
   * {@code env} added to (or, for a null value, removed from) this JVM's environment.
   */
  public static CommandRun benchlake(Class<?> owner, Path workDir, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return run(command(owner, args), workDir, env, "benchlake " + String.join(" ", args));
  }

  /**
   * Runs {@code script} as bash runs a line a user typed ({@code bash -o pipefail -c script}: globs,
   * quotes, pipes, a {@code \}-continued line), in {@code workDir}, with {@code env} as for
   * {@link #benchlake}; the exit code is the last failing command's of a pipeline.
   */
  public static CommandRun shell(Path workDir, Map<String, String> env, String script)
      throws IOException, InterruptedException {
    return run(List.of("bash", "-o", "pipefail", "-c", script), workDir, env, script);
  }

  private static CommandRun run(List<String> command, Path workDir, Map<String, String> env, String what)
      throws IOException, InterruptedException {
    // Files rather than pipes: every log goes to stderr, and a full pipe would stall the child.
    Path out = Files.createTempFile("benchlake-out-", ".txt");
    Path err = Files.createTempFile("benchlake-err-", ".txt");
    try {
      Process p = start(command, workDir, env, out, err);
      if (!p.waitFor(PROCESS_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(what + " did not end in " + PROCESS_LIMIT.toSeconds() + " s");
      }
      return new CommandRun(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Starts {@code bin/benchlake args…} as {@link #benchlake} runs it (same launcher, same
   * environment), its stdout and stderr written to the files {@code out} and {@code err}, and
   * returns at once: for a test that watches or kills the process while it works.
   */
  public static Process start(Class<?> owner, Path workDir, Map<String, String> env, Path out, Path err,
      String... args) throws IOException {
    return start(command(owner, args), workDir, env, out, err);
  }

  private static List<String> command(Class<?> owner, String... args) {
    List<String> command = new ArrayList<>(List.of(launcher(owner).toString()));
    command.addAll(List.of(args));
    return command;
  }

  private static Process start(List<String> command, Path workDir, Map<String, String> env, Path out, Path err)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
    SCRUBBED_ENV.forEach(pb.environment()::remove);
    pb.environment().merge("BENCHLAKE_JAVA_OPTS", CHILD_JVM_OPTS, (inherited, ours) -> inherited + " " + ours);
    env.forEach((k, v) -> {
      if (v == null) {
        pb.environment().remove(k);
      } else {
        pb.environment().put(k, v);
      }
    });
    return pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
  }

  /** {@code bin/benchlake} of the repository that {@code owner} belongs to. */
  public static Path launcher(Class<?> owner) {
    return ModuleDirs.repository(owner).resolve("bin").resolve("benchlake");
  }

  /** Both streams, stdout first. */
  public String both() {
    return stdout + stderr;
  }

  /** Exit code 2 and the message on stderr, without a stack trace. */
  public void assertBadInput(String message) {
    assertThat(exitCode).as(stderr).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(stderr).contains(message).doesNotContain("at dev.benchlake");
  }
}
