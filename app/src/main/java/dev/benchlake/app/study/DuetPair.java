package dev.benchlake.app.study;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.loadgen.LoadgenArgs;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.LoadgenClassPath;
import dev.benchlake.loadgen.LoadgenMain;
import dev.benchlake.loadgen.StdioBarrier;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One round of a duet: both sides' loadgen runs at the same moment, each a process of its own on
 * its CPU set. A Java thread cannot be pinned, so the side's whole client is a JVM; an embedded
 * server inherits its set (pg_ctl forks the postmaster, the postmaster every backend), a server by
 * URL is not pinned at all. With {@link CpuSwap#PER_ROUND} the side's JVM is started under
 * {@code taskset -c}; with {@link CpuSwap#IN_WINDOW} it joins a cgroup cpuset group of its side's
 * first thing, and {@link InWindowCpuSwap} swaps the two groups' sets inside every step. Each side waits
 * before every step ({@code --barrier stdio}); once both are ready this coordinator gives both the
 * same start instant, a little ahead, so that the side that was slower to get there (a JVM start,
 * a server start, loading the tables, a table-health snapshot) shifts neither side's window: both
 * count the step over the same interval, which each manifest records ({@code step_windows}).
 *
 * <p>Each side's stdout (but the barrier's lines) and stderr go to {@code LOGS/<run dir name>.log}.
 */
public final class DuetPair {
  /**
   * How far ahead of "both ready" a step starts: time for both processes, each blocked reading its
   * stdin, to read the line (a side that reads it late only loses part of its warm-up: the window
   * counts from this instant). Paid before every step of every round.
   */
  static final long LEAD_NS = TimeUnit.MILLISECONDS.toNanos(100);
  /** A side's JVM heap: loadgen's stays near 20 MB of old generation, its RSS under 400 MB. */
  private static final String CHILD_HEAP = "-Xmx768m";
  /**
   * The JVM flags bin/benchlake gives {@code benchlake loadgen} (app/src/main/launcher/jvm-profile.sh,
   * their one definition, measured there), passed on by the launcher in this property; absent when
   * the study runs in another JVM (tests), then a side runs on the JVM's defaults.
   */
  static final String LOADGEN_JVM_FLAGS = "benchlake.loadgen.jvm-flags";
  /**
   * The class-data-sharing archive of a side's JVM (app/src/main/launcher/cds-train.sh makes it at
   * build time, on the class path below, and bin/benchlake names it in this property): the ~4,000
   * classes a side loads mapped already parsed and verified. A side's JVM then reaches its first
   * step 1.3 s sooner on one CPU (4.1 s against 2.8 s, twice a round). A JVM that cannot use it (a
   * rebuilt jar, another class path) starts as without it ({@code -Xshare:auto}), quietly.
   */
  static final String SIDE_ARCHIVE = "benchlake.loadgen.side-archive";
  /** loadgen's jars out of this JVM's class path: a side's JVM starts without searching Spark's. */
  private static final String SIDE_CLASS_PATH = LoadgenClassPath.of(System.getProperty("java.class.path"));

  private final Path logs;
  private final PrintWriter log;
  private final CpuSwap swap;

  DuetPair(Path logs, PrintWriter log, CpuSwap swap) {
    this.logs = logs;
    this.log = log;
    this.swap = swap;
  }

  /** A side: its name ({@code a}, {@code b}), what it runs, where. */
  public record Side(String name, LoadgenConfig config, CpuList cpus) {}

  /** Both sides' finished runs, and how far apart they became ready before each step. */
  record Outcome(RunManifest a, RunManifest b, long largestReadyGapNs) {}

  /**
   * The command that runs {@code side}: how it is pinned, this JVM, loadgen's part of this class path, loadgen's
   * options.
   *
   * @param group the cgroup.procs file of the side's cpuset group, which a shell joins before it
   *     becomes the side's JVM (so that every process the side starts is in it); null: taskset pins it
   */
  static List<String> command(Side side, Path group) {
    List<String> command = new ArrayList<>(group == null ? List.of("taskset", "-c", side.cpus().toString())
        : List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", group.toString()));
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), CHILD_HEAP));
    for (String flag : System.getProperty(LOADGEN_JVM_FLAGS, "").split(" ")) {
      if (!flag.isBlank()) {
        command.add(flag);
      }
    }
    String archive = System.getProperty(SIDE_ARCHIVE, "");
    if (!archive.isEmpty() && Files.isRegularFile(Path.of(archive))) {
      command.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=error"));
    }
    command.addAll(List.of("-cp", SIDE_CLASS_PATH, LoadgenMain.class.getName()));
    command.addAll(LoadgenArgs.of(side.config()));
    command.addAll(List.of("--barrier", "stdio", "--quiet"));
    return command;
  }

  /**
   * Runs both sides to the end.
   *
   * @throws BadInputException when a side refused its input (exit 2: e.g. a setting its server refused)
   * @throws IllegalStateException when a side failed or did not complete
   */
  Outcome run(Side a, Side b) throws IOException, InterruptedException {
    Files.createDirectories(logs);
    a = new Side(a.name(), a.config().withLabel(CpuSwap.LABEL, swap.id()), a.cpus());
    b = new Side(b.name(), b.config().withLabel(CpuSwap.LABEL, swap.id()), b.cpus());
    if (swap == CpuSwap.PER_ROUND) {
      return run(a, b, null, null);
    }
    CgroupCpusets.Found found = CgroupCpusets.forThisProcess();
    CgroupCpusets cpusets = found.cpusets().orElseThrow(() -> new IllegalStateException(
        "the in-window CPU swap needs cgroup cpuset groups, and " + found.why()));
    try (CgroupCpusets.Group ga = cpusets.create(a.name(), a.cpus());
        CgroupCpusets.Group gb = cpusets.create(b.name(), b.cpus())) {
      return run(a, b, ga, gb);
    }
  }

  private Outcome run(Side a, Side b, CgroupCpusets.Group ga, CgroupCpusets.Group gb)
      throws IOException, InterruptedException {
    long largestGapNs = 0;
    long warmupNs = a.config().warmup().toNanos();
    boolean[] bFirst = new boolean[1];
    InWindowCpuSwap swapper = ga == null ? null : new InWindowCpuSwap(a.cpus(), b.cpus(), (setA, setB) -> {
      // Between the two writes both sides share one set: which side moves first alternates, so
      // that neither is always the one that waits on the other's CPU.
      if (bFirst[0]) {
        gb.cpus(setB);
        ga.cpus(setA);
      } else {
        ga.cpus(setA);
        gb.cpus(setB);
      }
      bFirst[0] = !bFirst[0];
    }, InWindowCpuSwap.periodNs());
    try (swapper; Child ca = new Child(a, logs, ga); Child cb = new Child(b, logs, gb)) {
      // The side whose output ended first: when a side fails, its error is the one to report, not
      // the other side's "stopped before step N".
      boolean bEndedFirst = false;
      while (true) {
        long waitStartNs = System.nanoTime();
        Arrival aa = ca.nextReady();
        Arrival ab = aa.ready().isPresent() ? cb.nextReady() : new Arrival(Optional.empty(), System.nanoTime());
        Optional<StdioBarrier.Ready> ra = aa.ready();
        Optional<StdioBarrier.Ready> rb = ab.ready();
        if (ra.isEmpty() || rb.isEmpty()) {
          // A side ended: at the end of its steps (the other ends too), or it failed (the other,
          // waiting behind the barrier, cannot run the step alone: it is stopped).
          bEndedFirst = ra.isPresent();
          ca.stop();
          cb.stop();
          break;
        }
        if (!ra.get().equals(rb.get())) {
          ca.stop();
          cb.stop();
          throw new IllegalStateException("the sides reached different steps: a " + ra.get() + ", b " + rb.get());
        }
        long gapNs = ab.atNs() - aa.atNs();
        largestGapNs = Math.max(largestGapNs, Math.abs(gapNs));
        long go = epochNs() + LEAD_NS;
        if (swapper != null) {
          swapper.throwIfFailed();
          swapper.alignTo(go + warmupNs);
        }
        ca.go(ra.get().index(), go);
        cb.go(ra.get().index(), go);
        log.println(String.format(Locale.ROOT, "    both ready for %-30s (b %+.0f ms after a; waited %.1f s in all)",
            ra.get().step(), gapNs / 1e6, (System.nanoTime() - waitStartNs) / 1e9));
        log.flush();
      }
      RunManifest mb = bEndedFirst ? cb.finish() : null;
      RunManifest ma = ca.finish();
      mb = mb != null ? mb : cb.finish();
      if (swapper != null) {
        swapper.close();
        swapper.throwIfFailed();
        log.println("    " + swapper.summary());
        log.flush();
      }
      return new Outcome(ma, mb, largestGapNs);
    }
  }

  /** A ready line (empty: the side's output ended) and when it arrived ({@link System#nanoTime()}). */
  private record Arrival(Optional<StdioBarrier.Ready> ready, long atNs) {}

  /** Now, in ns since the epoch: the clock of the barrier's start instants. */
  static long epochNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /** One side's process: its stdout read on a thread of its own, barrier lines handed over, the rest logged. */
  private static final class Child implements AutoCloseable {
    private final Side side;
    private final Process process;
    private final Writer stdin;
    private final Path logFile;
    private final BlockingQueue<Arrival> ready = new LinkedBlockingQueue<>();
    private final Thread reader;
    private boolean stopped;

    Child(Side side, Path logs, CgroupCpusets.Group group) throws IOException {
      this.side = side;
      Path runDir = side.config().outDir();
      this.logFile = logs.resolve(runDir.getFileName() + ".log");
      List<String> command = command(side, group == null ? null : group.procs());
      Files.writeString(logFile, String.join(" ", command) + "\n", StandardCharsets.UTF_8);
      ProcessBuilder pb = new ProcessBuilder(command)
          .redirectError(ProcessBuilder.Redirect.appendTo(new File(logFile.toString() + ".err")));
      this.process = pb.start();
      this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
      this.reader = new Thread(this::read, "duet-" + side.name());
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8)); Writer file = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND)) {
        String line;
        while ((line = out.readLine()) != null) {
          Optional<StdioBarrier.Ready> r = StdioBarrier.ready(line);
          if (r.isPresent()) {
            ready.add(new Arrival(r, System.nanoTime()));
          } else {
            file.write(line + "\n");
            file.flush();
          }
        }
      } catch (IOException e) {
        // The process went away; its exit code says how.
      } finally {
        ready.add(new Arrival(Optional.empty(), System.nanoTime()));
      }
    }

    /** The next step this side waits at, or none when its output ended (it exited). */
    Arrival nextReady() throws InterruptedException {
      Arrival next = ready.take();
      if (next.ready().isEmpty()) {
        ready.add(next); // ended for good
      }
      return next;
    }

    void go(int index, long epochNs) throws IOException {
      stdin.write(StdioBarrier.go(index, epochNs) + "\n");
      stdin.flush();
    }

    /** No more steps: a side still waiting stops (interrupted); one that finished is unaffected. */
    void stop() {
      if (stopped) {
        return;
      }
      stopped = true;
      try {
        stdin.write(StdioBarrier.STOP + "\n");
        stdin.flush();
      } catch (IOException e) {
        // it has exited already
      }
      try {
        stdin.close();
      } catch (IOException e) {
        // likewise
      }
    }

    /** Waits for the process and reads its manifest. */
    RunManifest finish() throws IOException, InterruptedException {
      int code = process.waitFor();
      reader.join(TimeUnit.SECONDS.toMillis(10));
      String where = "side " + side.name() + " (" + side.config().outDir().getFileName() + " on CPUs " + side.cpus() + ")";
      if (code == ExitCode.BAD_INPUT) {
        throw new BadInputException(where + ": " + lastLine() + " (its log: " + logFile + ")");
      }
      Path manifest = RunDirectory.manifest(side.config().outDir());
      if (code != ExitCode.OK || !Files.isRegularFile(manifest)) {
        throw new IllegalStateException(where + " exited with " + code + ": " + lastLine() + " (its log: " + logFile + ")");
      }
      RunManifest m = RunManifest.read(manifest);
      if (m.status() != RunStatus.COMPLETE) {
        throw new IllegalStateException(where + " " + m.status().json() + ": " + m.error());
      }
      return m;
    }

    /** The last line the side wrote on stderr (loadgen's one-line error), else on stdout. */
    private String lastLine() {
      for (Path file : List.of(Path.of(logFile + ".err"), logFile)) {
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

    /** Ends the process if it still runs (the study failed): stdin closed first, so it ends its run as interrupted. */
    @Override
    public void close() throws InterruptedException {
      stop();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }
}
