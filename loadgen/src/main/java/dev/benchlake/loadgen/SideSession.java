package dev.benchlake.loadgen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.benchlake.core.CgroupFolder;
import dev.benchlake.core.Json;
import dev.benchlake.core.ProcessIdentity;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code benchlake loadgen --session stdio}: a duet's side that lives for a whole study. It reads
 * one run per line on stdin ({@code run ["--workload", …]}: loadgen's options as a JSON array),
 * runs it exactly as {@code benchlake loadgen} would (an embedded server of its own, started and
 * stopped by the run), behind the same stdin's step barrier ({@link StdioBarrier}), and after a
 * complete run prints {@link #DONE} and reads the next. Only the JVM is kept from run to run: a side
 * pays a JVM's start and its JIT's warm-up once per study instead of once per round. The servers
 * are not kept: runs that share a server start share its caches and state, and would replicate
 * less than they seem to (analysis's Replicates says so of such runs).
 *
 * <p>A run that fails or is refused ends the session with that run's exit code and its one-line
 * error on stderr, as the one-shot command would; {@link #END}, or the end of stdin, ends it with 0.
 *
 * <p>The holder's end. The holder ends a session it is done with by {@link #END}, then closes
 * stdin; it stays, and removes what it made. stdin that ends without it means the holder died
 * ({@code kill -9}): the session is then the one left to clean up. Either end in the middle of a
 * run stops the run at once, as a signal would ({@link ShutdownActions}: the run ends as
 * interrupted, its server is stopped), not after the step under way, which may last minutes; and
 * when the holder died, the side leaves the cgroup cpuset group it was started in
 * ({@value #GROUP_PROPERTY}) and removes it, once its holder ({@value #HOLDER_PROPERTY}) is gone.
 * stdin is read on a thread of its own for that: its end is seen while a step runs.
 *
 * <p>This class is both ends' one definition of the protocol: {@link #run} makes the line the
 * holder writes, {@link #DONE} is the line it waits for. It runs each run through {@link Runs},
 * which the command that serves the session gives it: the session sits below that command and
 * knows nothing of its options.
 */
public final class SideSession {
  /** The option's only value. */
  static final String STDIO = "stdio";
  /** The line after a complete run. */
  public static final String DONE = "benchlake-session done";
  /** The holder's last line: it ends the session, and stays to clean up after it. */
  public static final String END = "benchlake-session end";
  /** The system property with the holder's {@link ProcessIdentity} ({@code PID:START}). */
  public static final String HOLDER_PROPERTY = "benchlake.duet.holder";
  /** The system property with the cgroup folder the side was started in (a duet with the in-window swap). */
  public static final String GROUP_PROPERTY = "benchlake.duet.group";
  /** How long a side waits for a holder whose stdin ended to be gone (it is dying) before it removes its group. */
  private static final long HOLDER_GONE_WAIT_MS = 5_000;
  private static final String RUN = "run ";

  /** Runs one run of the session: loadgen's options, its barrier reading the session's stdin; its exit code. */
  @FunctionalInterface
  interface Runs {
    int run(String[] args, StdioBarrier.Lines barrierIn);
  }

  private final BufferedReader in;
  private final Runs runs;
  private final PrintWriter out;
  private final PrintWriter err;
  /** stdin's lines as the reader thread read them; an empty one: the end, for good. */
  private final BlockingQueue<Optional<String>> lines = new LinkedBlockingQueue<>();
  private volatile boolean inRun;
  /** stdin ended without {@link #END}: the holder died. */
  private volatile boolean holderGone;

  SideSession(BufferedReader in, PrintWriter out, PrintWriter err, Runs runs) {
    this.in = in;
    this.runs = runs;
    this.out = out;
    this.err = err;
  }

  /** The line that asks a session for one run with loadgen's options {@code args}. */
  public static String run(List<String> args) {
    try {
      return RUN + Json.mapper().writeValueAsString(args);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs every run read on stdin; the exit code of the first that did not complete, else 0. */
  int serve() throws IOException {
    // Registered first, so that it runs last: after the run is finished and its server stopped.
    ShutdownActions.register("leave the duet's cpuset group", this::leaveGroupIfHolderGone);
    Thread reader = new Thread(this::readStdin, "session-stdin");
    reader.setDaemon(true);
    reader.start();
    String line;
    while ((line = readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      if (!line.startsWith(RUN)) {
        throw new BadInputException("the session's holder sent '" + line.strip() + "'; expected 'run [OPTIONS]'");
      }
      inRun = true;
      int code;
      try {
        code = runs.run(args(line.substring(RUN.length())), this::readLine);
      } finally {
        inRun = false;
      }
      if (code != ExitCode.OK) {
        return code;
      }
      out.println(DONE);
      out.flush();
    }
    return ExitCode.OK;
  }

  /** The next line of stdin, or null at its end (or {@link #END}). */
  private String readLine() throws IOException {
    try {
      Optional<String> next = lines.take();
      if (next.isEmpty()) {
        lines.add(next); // the end, for every later reader too
      }
      return next.orElse(null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("reading the session's stdin");
    }
  }

  /** The reader thread: stdin into {@link #lines}; at its end, a run under way stops at once. */
  private void readStdin() {
    boolean ended = false;
    try {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.strip().equals(END)) {
          ended = true;
          break;
        }
        lines.add(Optional.of(line));
      }
    } catch (IOException e) {
      // as the end of stdin
    }
    holderGone = !ended;
    lines.add(Optional.empty());
    if (inRun) {
      err.println("benchlake loadgen: " + (ended ? "the study ended the session" : "the study's process went away "
          + "(stdin closed)") + " in the middle of a run: stopping it");
      err.flush();
      // As a signal would: the run ends as interrupted and its server stops (ShutdownActions).
      System.exit(ExitCode.FAILURE);
    }
  }

  /**
   * When the holder died, this side is the one left to remove its cgroup group: it moves itself
   * (and anything its server left) to the parent group and removes the group, once the holder,
   * whose death ended stdin, is gone. A holder that ended the session, or still runs, removes it
   * itself.
   */
  private void leaveGroupIfHolderGone() {
    String group = System.getProperty(GROUP_PROPERTY);
    String holder = System.getProperty(HOLDER_PROPERTY);
    if (!holderGone || group == null || holder == null) {
      return;
    }
    ProcessIdentity identity = ProcessIdentity.parse(holder);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOLDER_GONE_WAIT_MS);
    while (identity.alive() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
    if (identity.alive()) {
      return;
    }
    try {
      CgroupFolder.remove(Path.of(group));
    } catch (IOException e) {
      err.println("benchlake loadgen: " + e.getMessage() + " (benchlake study clean removes it)");
      err.flush();
    }
  }

  private static String[] args(String json) {
    try {
      return Json.mapper().readValue(json, new TypeReference<List<String>>() {}).toArray(String[]::new);
    } catch (JsonProcessingException e) {
      throw new BadInputException("the session's holder sent a run whose options are not a JSON array of strings: "
          + e.getOriginalMessage());
    }
  }
}
