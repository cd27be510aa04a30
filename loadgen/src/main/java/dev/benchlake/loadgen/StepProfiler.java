package dev.benchlake.loadgen;

import dev.benchlake.core.raw.StepProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code loadgen --profile}: a CPU profile of the embedded server's process tree over each step's
 * measured window, with {@code perf record -e cpu-clock -c <1 s / hz> -g -p <pids>} (the postmaster
 * and its children at the window's start; backends forked later inherit it), kept as
 * {@code profiles/<step>.perf.data} beside the run, and {@code perf report --stdio --no-children}'s
 * top symbols as {@code profiles/<step>.txt} and in the manifest ({@link StepProfile}).
 *
 * <p>A sample every {@code 1/hz} s of a process's CPU time ({@code -c}, a fixed period of the
 * {@code cpu-clock} software event, which every kernel has), not perf's {@code -F hz}: in frequency
 * mode perf re-estimates the period from the last tick's count, and a backend that runs in bursts
 * of ~100 µs was not sampled at all (0 samples of point-select's 0.16 server CPU-s over 3 s at 99 Hz,
 * on this VM without hardware counters). A fixed period counts every process's CPU time alike.
 *
 * <p>perf runs detached from this JVM ({@code sh -c 'perf … &'}, so that it is not this JVM's
 * child): a child's CPU time lands in its parent's {@code cutime} when reaped, and this JVM's
 * {@code cutime} is the client's CPU time of the step's resource counters. Its report is made
 * after the window's last reading.
 *
 * <p>A profile that cannot be made (no perf, a kernel that refuses it, perf failing) is recorded
 * as not profiled with why; the run goes on. Nothing is started for a run without {@code --profile}.
 */
final class StepProfiler {
  private static final Logger LOG = LoggerFactory.getLogger(StepProfiler.class);
  /**
   * The default rate: a sample per ms of a process's CPU time, so that a short step's few CPU-s
   * give thousands of samples; the sampling costs the server a few µs each (under 1 % of its CPU).
   */
  static final int DEFAULT_HZ = 1_000;
  /** The highest rate asked for: perf's own default limit (kernel.perf_event_max_sample_rate) is 100 kHz or less. */
  static final int MAX_HZ = 10_000;
  /** The symbols kept in the manifest; the text summary keeps {@link #SUMMARY_LINES}. */
  static final int TOP = 10;
  static final int SUMMARY_LINES = 40;
  /** The folder of the profiles in the run directory. */
  static final String DIR = "profiles";
  private static final long STOP_WAIT_S = 60;
  private static final Pattern LINE = Pattern.compile("^\\s*([0-9]+(?:\\.[0-9]+)?)%\\s+(\\S+)\\s+\\[(.)\\]\\s+(.+?)\\s*$");
  private static final Pattern SAMPLES = Pattern.compile("^# Samples: ([0-9]+[KMG]?)\\b.*");

  private final Path perf;
  private final int hz;
  private final Path runDir;
  private final String scope;
  private final String refused;
  private Running running;

  /** A perf record under way: its pid (not this JVM's child) and where it writes. */
  private record Running(String step, long pid, Path data, Path log) {}

  /**
   * @param perf the perf binary, or null when there is none
   * @param hz samples per second of a process's CPU time
   * @param runDir the run directory, or null for a run that records nothing
   */
  StepProfiler(Path perf, int hz, Path runDir) {
    this.perf = perf;
    this.hz = hz;
    this.runDir = runDir;
    String why = null;
    String s = null;
    if (why == null && runDir == null) {
      why = "the run records nothing (--no-record)";
    }
    if (why == null && perf == null) {
      why = "perf not found on the PATH (Debian: apt-get install linux-perf)";
    }
    if (why == null) {
      int paranoid = paranoid();
      if (root() || paranoid <= 1) {
        s = "user and kernel";
      } else if (paranoid == 2) {
        s = "user space only (kernel.perf_event_paranoid=2 lets a plain user profile its own processes' user space)";
      } else {
        why = "kernel.perf_event_paranoid=" + paranoid + " refuses perf to a plain user (2 or less lets it profile"
            + " its own processes)";
      }
    }
    this.scope = s;
    this.refused = why;
  }

  /** Why no step can be profiled, said once in this JVM: a study of many runs says it once, before the first. */
  private static final java.util.Set<String> SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** The profiler {@code --profile} asks for (an embedded server's: {@link LoadgenConfig} refuses others). */
  static StepProfiler open(int hz, Path runDir) {
    StepProfiler profiler = new StepProfiler(onPath("perf"), hz, runDir);
    if (profiler.refused != null && SAID.add(profiler.refused)) {
      LOG.warn("--profile: no step will be profiled: {}", profiler.refused);
    }
    return profiler;
  }

  /**
   * Why a recorded run on this machine can profile no step (perf absent, or a kernel that refuses
   * it), or null; counted as said, so that the runs of this JVM do not say it again.
   */
  static String refusedHere() {
    String why = new StepProfiler(onPath("perf"), DEFAULT_HZ, Path.of("")).refused;
    if (why != null) {
      SAID.add(why);
    }
    return why;
  }

  /** Starts profiling {@code pids} (the server's tree) for {@code step}; a failure is kept for {@link #stop}. */
  synchronized void start(String step, List<Long> pids) {
    running = null;
    if (refused != null || pids.isEmpty()) {
      return;
    }
    try {
      Path dir = Files.createDirectories(runDir.resolve(DIR));
      String base = fileName(step);
      Path data = dir.resolve(base + ".perf.data");
      Path log = dir.resolve(base + ".perf.log");
      boolean kernel = scope.startsWith("user and kernel");
      List<String> record = new ArrayList<>(List.of(perf.toString(), "record", "-e", kernel ? "cpu-clock" : "cpu-clock:u",
          "-c", Long.toString(1_000_000_000L / hz), "-g", "--no-buildid-cache", "-o", data.toString()));
      record.add("-p");
      record.add(pids.stream().map(String::valueOf).collect(Collectors.joining(",")));
      String command = record.stream().map(StepProfiler::quote).collect(Collectors.joining(" "))
          + " </dev/null >" + quote(log.toString()) + " 2>&1 & echo $!";
      Process sh = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
      String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      sh.waitFor(10, TimeUnit.SECONDS);
      running = new Running(step, Long.parseLong(out), data, log);
    } catch (IOException | RuntimeException e) {
      LOG.warn("the profile of {} was not started: {}", step, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Ends the window's sampling (perf writes its file as it exits). */
  synchronized void stop() {
    if (running == null) {
      return;
    }
    ProcessHandle.of(running.pid()).ifPresent(ProcessHandle::destroy); // SIGTERM: perf record ends as on ^C
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_S);
    while (alive(running.pid()) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * The step's profile, once {@link #stop} has ended its sampling: the report made now (outside
   * the window), or why there is none.
   */
  synchronized StepProfile profile(String step) {
    if (refused != null) {
      return StepProfile.notProfiled(refused);
    }
    Running r = running;
    running = null;
    if (r == null || !r.step().equals(step)) {
      return StepProfile.notProfiled("perf could not be started (see the run's log)");
    }
    try {
      if (!Files.isRegularFile(r.data()) || Files.size(r.data()) == 0) {
        return StepProfile.notProfiled("perf refused: " + lastLine(r.log()));
      }
      Process report = new ProcessBuilder(perf.toString(), "report", "--stdio", "--no-children", "-g", "none",
          "--sort", "dso,sym", "-i", r.data().toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String text = new String(report.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      report.waitFor(STOP_WAIT_S, TimeUnit.SECONDS);
      List<StepProfile.Symbol> symbols = symbols(text);
      Long samples = samples(text);
      if (symbols.isEmpty()) {
        return StepProfile.notProfiled("perf took no samples: " + lastLine(r.log()));
      }
      Path summary = r.data().resolveSibling(fileName(step) + ".txt");
      Files.writeString(summary, summary(step, samples, symbols), StandardCharsets.UTF_8);
      Files.deleteIfExists(r.log());
      return new StepProfile(runDir.relativize(r.data()).toString(), runDir.relativize(summary).toString(), hz,
          scope, samples, symbols.subList(0, Math.min(TOP, symbols.size())), null);
    } catch (IOException | RuntimeException e) {
      return StepProfile.notProfiled("perf report failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return StepProfile.notProfiled("interrupted while reporting");
    }
  }

  /** The lines of {@code perf report --stdio --no-children --sort dso,sym -g none} with a share, in its order. */
  static List<StepProfile.Symbol> symbols(String report) {
    List<StepProfile.Symbol> symbols = new ArrayList<>();
    for (String line : report.split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        symbols.add(new StepProfile.Symbol(Double.parseDouble(m.group(1)), m.group(2), m.group(4)));
      }
    }
    return symbols;
  }

  /** The report's sample count ({@code # Samples: 1K of event …} rounds: then to the thousand), or null. */
  static Long samples(String report) {
    for (String line : report.split("\n")) {
      Matcher m = SAMPLES.matcher(line);
      if (m.matches()) {
        String n = m.group(1);
        char suffix = n.charAt(n.length() - 1);
        long scale = switch (suffix) {
          case 'K' -> 1_000L;
          case 'M' -> 1_000_000L;
          case 'G' -> 1_000_000_000L;
          default -> 1L;
        };
        return scale == 1 ? Long.parseLong(n) : Long.parseLong(n.substring(0, n.length() - 1)) * scale;
      }
    }
    return null;
  }

  private String summary(String step, Long samples, List<StepProfile.Symbol> symbols) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "# %s: %s samples, one per %d µs of CPU time, of the server's processes over"
        + " the measured window (%s)%n# perf report --stdio --no-children --sort dso,sym -g none -i %s%n", step,
        samples == null ? "?" : samples, 1_000_000 / hz, scope, fileName(step) + ".perf.data"));
    for (StepProfile.Symbol s : symbols.subList(0, Math.min(SUMMARY_LINES, symbols.size()))) {
      b.append(String.format(Locale.ROOT, "%7.2f%%  %-24s %s%n", s.share(), s.dso(), s.symbol()));
    }
    return b.toString();
  }

  /** A step's name as a file name: what is not a letter, digit, '.', '_', '-' or '=' becomes '_'. */
  static String fileName(String step) {
    return step.replaceAll("[^A-Za-z0-9._=-]", "_");
  }

  private static String lastLine(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().map(String::trim)
          .filter(l -> !l.isEmpty()).toList();
      return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
    } catch (IOException e) {
      return "no output (" + e.getMessage() + ")";
    }
  }

  /** Whether {@code pid} runs: a zombie (exited, not yet reaped by its new parent) has ended. */
  private static boolean alive(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.UTF_8);
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  private static boolean root() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("Uid:")) {
          return line.substring(4).trim().split("\\s+")[1].equals("0"); // the effective uid
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("/proc/self/status: {}", e.getMessage());
    }
    return false;
  }

  /** kernel.perf_event_paranoid, or 2 (Linux's default) when it cannot be read. */
  private static int paranoid() {
    try {
      return Integer.parseInt(Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid"),
          StandardCharsets.UTF_8).trim());
    } catch (IOException | RuntimeException e) {
      return 2;
    }
  }

  private static Path onPath(String name) {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(java.io.File.pathSeparator)) {
        Path p = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }
}
