package dev.benchlake.app.study.duet;

import dev.benchlake.core.ProcessIdentity;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.loadgen.LoadgenArgs;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.SideSession;
import dev.benchlake.loadgen.StdioBarrier;
import dev.benchlake.loadgen.db.OrphanReaper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A duet's side as a process: a {@code loadgen --session stdio} JVM ({@link SideCommand#command}) that
 * runs the runs it is given one after another, each behind the stdin barrier, for a whole study
 * ({@link DuetSessions}). Its stdout is read on a thread of its own: barrier lines and the end of
 * each run are handed over, the rest goes to the current run's log; its stderr to a file of its own.
 */
final class SideProcess implements AutoCloseable {
  /** What the side said next: a step it waits at, the end of its run, or the end of its output (it exited). */
  record Arrival(Optional<StdioBarrier.Ready> ready, boolean runDone, long atNs) {
    boolean ended() {
      return ready.isEmpty();
    }
  }

  private final String name;
  private final Process process;
  /** The process as the kernel knows it: the owner its servers record ({@link ServerOwner}). */
  private final ProcessIdentity identity;
  /** Where the runs it was given start their servers: where to look for what it left when it dies. */
  private final Set<Path> serverDirs = new java.util.concurrent.CopyOnWriteArraySet<>(); // read by the CPU swap's thread
  private final Writer stdin;
  private final Path errFile;
  private final List<String> command;
  private final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
  private final Thread reader;
  private Writer runLog;
  private SideRun current;
  private Path currentLog;
  /** How the last run ended: done, or the end of the output; null while one is under way. */
  private Arrival end;
  /** The side waits at the barrier for a go this process has not sent. */
  private boolean awaitingGo;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Starts the process.
   *
   * @param name what it is called in its thread's name
   * @param command its command ({@link SideCommand#command})
   * @param errFile where its stderr goes
   */
  SideProcess(String name, List<String> command, Path errFile) throws IOException {
    this.name = name;
    this.command = List.copyOf(command);
    Files.createDirectories(errFile.getParent());
    this.errFile = errFile;
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(errFile.toFile()));
    this.process = pb.start();
    // taskset and the group's shell exec the JVM: the pid and its start time are the JVM's.
    this.identity = ProcessIdentity.of(process.pid()).orElse(new ProcessIdentity(process.pid(), -1));
    this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.reader = new Thread(this::read, "duet-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /** The process's pid: the side's JVM's (taskset execs it). */
  long pid() {
    return identity.pid();
  }

  /**
   * The postmasters of the embedded servers this process started that run now (their parent is
   * init, not this process): what the in-window swap moves with it when it moves threads.
   */
  List<Long> postmasters() {
    List<Long> found = new ArrayList<>();
    for (Path dir : serverDirs) {
      found.addAll(OrphanReaper.postmastersOf(identity, dir));
    }
    return found;
  }

  /** Starts {@code side}'s run: its log ({@code log}) begun, its options sent. */
  void begin(SideRun side, Path log) throws IOException {
    if (inRun()) {
      throw new IllegalStateException("the process " + name + " is still running side " + current.name() + "'s run");
    }
    current = side;
    currentLog = log;
    if (side.config().target() instanceof LoadgenConfig.Embedded e) {
      serverDirs.add(e.parentDir() != null ? e.parentDir().toAbsolutePath()
          : Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
    }
    List<String> args = new ArrayList<>(LoadgenArgs.of(side.config()));
    args.addAll(List.of("--barrier", "stdio", "--quiet"));
    Writer runLogOfThis = Files.newBufferedWriter(currentLog, StandardCharsets.UTF_8);
    runLogOfThis.write(String.join(" ", command) + "\nrun " + String.join(" ", Redaction.args(args)) + "\n");
    switchLog(runLogOfThis);
    end = null;
    write(SideSession.run(args));
  }

  private void read() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        Optional<StdioBarrier.Ready> r = StdioBarrier.ready(line);
        if (r.isPresent()) {
          arrivals.add(new Arrival(r, false, System.nanoTime()));
        } else if (line.equals(SideSession.DONE)) {
          arrivals.add(new Arrival(Optional.empty(), true, System.nanoTime()));
        } else {
          logLine(line);
        }
      }
    } catch (IOException e) {
      // The process went away; its exit code says how.
    } finally {
      arrivals.add(new Arrival(Optional.empty(), false, System.nanoTime()));
    }
  }

  /** A run was begun and has not ended (nor been stopped and seen to end). */
  private boolean inRun() {
    return current != null && end == null;
  }

  /** Lines go to {@code log} from now on (the reader thread writes them; the run's log is switched between runs). */
  private synchronized void switchLog(Writer log) throws IOException {
    Writer previous = runLog;
    runLog = log;
    if (previous != null) {
      previous.close();
    }
  }

  private synchronized void logLine(String line) throws IOException {
    if (runLog != null) {
      runLog.write(line + "\n");
      runLog.flush();
    }
  }

  /** The next step this side waits at, or the end of its run (done, or its output ended). */
  Arrival nextReady() throws InterruptedException {
    Arrival next = arrivals.take();
    if (next.ended()) {
      end = next;
      if (!next.runDone()) {
        arrivals.add(next); // ended for good
      }
    } else {
      awaitingGo = true;
    }
    return next;
  }

  void go(int index, long epochNs) throws IOException {
    awaitingGo = false;
    write(StdioBarrier.go(index, epochNs));
  }

  /** No more steps of this run: a side waiting at the barrier stops its run (interrupted); an ended run is unaffected. */
  void stopRun() {
    if (awaitingGo) {
      awaitingGo = false;
      try {
        write(StdioBarrier.STOP);
      } catch (IOException e) {
        // it has exited already
      }
    }
  }

  /**
   * Stops the run under way at once, in the middle of a step too (the run ends as interrupted, its
   * server stops): this process ends, and serves no later pair.
   */
  void abort() {
    if (awaitingGo) {
      stopRun();
    } else {
      closeStdin();
    }
  }

  /**
   * Waits for the end of the run and reads its manifest: a side still running it is stopped at its
   * next step.
   *
   * @throws BadInputException when the side refused its input (exit 2: e.g. a setting its server refused)
   * @throws IllegalStateException when the side failed or did not complete
   */
  RunManifest finish() throws IOException, InterruptedException {
    while (inRun()) {
      stopRun();
      nextReady();
    }
    Path dir = current.config().outDir();
    String where = "side " + current.name() + " (" + dir.getFileName() + " on CPUs " + current.cpus() + ")";
    if (end == null || !end.runDone()) {
      closeStdin();
      int code = process.waitFor();
      reader.join(TimeUnit.SECONDS.toMillis(10));
      String left = stopWhatItLeft();
      if (code == ExitCode.BAD_INPUT) {
        throw new BadInputException(where + ": " + lastLine() + " (its log: " + currentLog + ")");
      }
      if (code > SIGNALLED) {
        throw new IllegalStateException(where + " was killed (signal " + (code - SIGNALLED) + ")" + left
            + " (its log: " + currentLog + ")");
      }
      if (code != ExitCode.OK || !Files.isRegularFile(RunDirectory.manifest(dir))) {
        throw new IllegalStateException(where + " exited with " + code + ": " + lastLine() + left + " (its log: "
            + currentLog + ")");
      }
    }
    RunManifest m = RunManifest.read(RunDirectory.manifest(dir));
    if (m.status() != RunStatus.COMPLETE) {
      throw new IllegalStateException(where + " " + m.status().json() + ": " + m.error());
    }
    return m;
  }

  /** A process killed by signal N exits, as its parent sees it, with 128 + N. */
  private static final int SIGNALLED = 128;

  private void write(String line) throws IOException {
    synchronized (stdin) {
      stdin.write(line + "\n");
      stdin.flush();
    }
  }

  /** Ends the session ({@link SideSession#END}: this process stays and cleans up), then closes its stdin. */
  private void closeStdin() {
    try {
      write(SideSession.END);
    } catch (IOException e) {
      // it has exited already
    }
    try {
      synchronized (stdin) {
        stdin.close();
      }
    } catch (IOException e) {
      // it has exited already
    }
  }

  /**
   * Once the process has ended: stops and removes the servers it left running (it was killed, and
   * its servers are processes of their own, which outlive it), saying so in its stderr file.
   *
   * @return {@code "; its server … was stopped"} for an error message, or empty
   */
  private String stopWhatItLeft() {
    List<String> stopped = new ArrayList<>();
    for (Path dir : serverDirs) {
      try {
        for (OrphanReaper.Orphan orphan : OrphanReaper.stopServersOf(identity, dir)) {
          stopped.add(orphan.dir().getFileName().toString());
        }
      } catch (RuntimeException e) {
        stopped.add("not all (" + e.getMessage() + ")");
      }
    }
    if (stopped.isEmpty()) {
      return "";
    }
    String said = "; the coordinator stopped the embedded server it left running and removed its cluster ("
        + String.join(", ", stopped) + ")";
    try {
      Files.writeString(errFile, "benchlake study" + said + "\n", StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND, java.nio.file.StandardOpenOption.CREATE);
    } catch (IOException e) {
      // the message carries it
    }
    return said;
  }

  /** The last line the side wrote on stderr (loadgen's one-line error), else in its run's log. */
  private String lastLine() {
    for (Path file : List.of(errFile, currentLog)) {
      try {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--) {
          if (!lines.get(i).isBlank() && !lines.get(i).startsWith("(set BENCHLAKE_DEBUG")) {
            return lines.get(i).strip();
          }
        }
      } catch (IOException e) {
        // try the next
      }
    }
    return "no output";
  }

  /**
   * Ends the process: a run still under way is stopped (it ends as interrupted, at once, even in
   * the middle of a step), the session is ended and stdin closed, which stops its servers; a server
   * it left running (it was killed) is stopped here.
   */
  @Override
  public void close() throws InterruptedException, IOException {
    // Not synchronized on this: the reader thread logs its last lines under this object's lock,
    // and close waits for it. A study's shutdown hook may close while the study's thread does.
    if (closed.getAndSet(true)) {
      return;
    }
    stopRun();
    closeStdin();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    }
    reader.join(TimeUnit.SECONDS.toMillis(10));
    stopWhatItLeft();
    switchLog(null);
  }
}
