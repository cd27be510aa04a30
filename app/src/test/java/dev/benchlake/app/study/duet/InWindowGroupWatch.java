package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.Json;
import dev.benchlake.core.raw.RunManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-window swap as the kernel saw it, on a duet that runs in this JVM with cgroup cpuset groups
 * (root): every 25 ms, the CPU sets of every process in the sides' groups ({@code
 * benchlake-duet-PID-one} and {@code -two}, each group's {@code cgroup.procs}, each process's {@code
 * Cpus_allowed_list}). {@link #assertMovedTogether} then holds that each side's client JVM, its
 * postmaster and backends were in its side's group, always on one of the two sets, the two sides on
 * different sets, each side on both sets; that the groups are gone afterwards; and that the runs and
 * study.json say how the sets were swapped. It watches a study another test runs anyway (the
 * quickstart's, in-window by default): a duet of its own for this took 42 s of CI's serial tier.
 */
public final class InWindowGroupWatch extends Thread {
  private static final String GROUP_PREFIX = "benchlake-duet-" + ProcessHandle.current().pid() + "-";
  private static final List<String> SETS = List.of("one", "two");

  private final Path parent;
  private final List<Map<String, Set<CpuList>>> samples = new ArrayList<>();
  private final Set<Long> postmasters = ConcurrentHashMap.newKeySet();
  private volatile boolean running = true;
  /** The watch's own CPU time, read by its thread as it stops (what watching adds to the test). */
  private volatile long cpuNs;

  private InWindowGroupWatch(Path parent) {
    super("group-watch");
    setDaemon(true);
    this.parent = parent;
  }

  /**
   * A watch, started, where this machine lets cpuset groups be made and has two CPUs for the sides;
   * else empty, and why on stdout (where the duet swaps by affinity, or between rounds).
   */
  public static Optional<InWindowGroupWatch> startWhereGroupsCanBeMade() {
    CgroupCpusets.Found found = CgroupCpusets.find();
    if (found.cpusets().isEmpty() || DuetCpus.available().size() < 2) {
      System.out.println("in-window groups not watched: " + (found.cpusets().isEmpty() ? found.why() : "one CPU"));
      return Optional.empty();
    }
    InWindowGroupWatch watch = new InWindowGroupWatch(found.cpusets().get().parent());
    watch.start();
    return Optional.of(watch);
  }

  @Override
  public void run() {
    while (running) {
      Map<String, Set<CpuList>> sample = Map.of("one", new HashSet<>(), "two", new HashSet<>());
      for (String set : SETS) {
        look(set, sample.get(set));
      }
      if (!sample.get("one").isEmpty() && !sample.get("two").isEmpty()) {
        synchronized (samples) {
          samples.add(sample);
        }
      }
      try {
        Thread.sleep(25);
      } catch (InterruptedException e) {
        break;
      }
    }
    cpuNs = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  private void look(String set, Set<CpuList> seen) {
    List<String> pids;
    try {
      pids = Files.readAllLines(parent.resolve(GROUP_PREFIX + set).resolve("cgroup.procs"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return; // no such group: before the duet's sides start, or after they end
    }
    for (String line : pids) {
      if (line.isBlank()) {
        continue;
      }
      long pid = Long.parseLong(line.strip());
      CpuList.allowedFor(pid).ifPresent(seen::add);
      try {
        String cmdline = new String(Files.readAllBytes(Path.of("/proc", line.strip(), "cmdline")), StandardCharsets.UTF_8);
        if (cmdline.contains("postgres\u0000-D")) {
          postmasters.add(pid);
        }
      } catch (IOException e) {
        // the process ended while we looked
      }
    }
  }

  /** Stops the watch; call once the duet has ended. */
  public void finish() throws InterruptedException {
    running = false;
    join();
    System.out.printf(java.util.Locale.ROOT, "in-window groups watched: %d samples, %.2f CPU-s%n", samples.size(),
        cpuNs / 1e9);
  }

  /**
   * What the watch saw, and what the study wrote, for an in-window duet by cgroup groups.
   *
   * @param study the study's folder (its study.json, its runs)
   * @param stderr the study's stderr with {@code --verbose}
   */
  public void assertMovedTogether(Path study, String stderr) throws IOException {
    // Each pair's swap line (--verbose). The period in a study's own words (study ab's first line; the
    // quickstart prints none) is SwapRuleTest's; here study.json's.
    assertThat(stderr).contains("swapped CPU sets");
    JsonNode file = Json.mapper().readTree(study.resolve("study.json").toFile());
    JsonNode sets = file.get("cpu_sets");
    assertThat(sets.get("swap").asText()).isEqualTo("in-window");
    assertThat(sets.get("swap_rule").asText()).contains("every 100 ms");
    CpuList one = CpuList.parse(sets.get("one").asText());
    CpuList two = CpuList.parse(sets.get("two").asText());
    for (JsonNode r : file.get("order")) {
      RunManifest m = RunManifest.read(study.resolve(r.get("run_dir").asText()).resolve("manifest.json"));
      assertThat(m.labels()).containsEntry("cpu_swap", "in-window");
    }

    List<Map<String, Set<CpuList>>> seen;
    synchronized (samples) {
      seen = List.copyOf(samples);
    }
    assertThat(seen).as("samples with both sides' processes").hasSizeGreaterThan(100);
    Set<CpuList> seenA = new HashSet<>();
    Set<CpuList> seenB = new HashSet<>();
    int apart = 0;
    for (Map<String, Set<CpuList>> sample : seen) {
      // The groups are the CPU sets' (DuetSessions): each holds the side process of its set, and
      // the server of the run that process is running.
      Set<CpuList> a = sample.get("one");
      Set<CpuList> b = sample.get("two");
      assertThat(a).as("group one's processes' sets").isSubsetOf(one, two);
      assertThat(b).as("group two's processes' sets").isSubsetOf(one, two);
      seenA.addAll(a);
      seenB.addAll(b);
      if (a.size() == 1 && b.size() == 1 && !a.equals(b)) {
        apart++;
      }
    }
    assertThat(seenA).as("group one on both sets").containsExactlyInAnyOrder(one, two);
    assertThat(seenB).as("group two on both sets").containsExactlyInAnyOrder(one, two);
    // A sample taken across a move (one write per group, microseconds apart) may see both on one set.
    assertThat(apart).as("samples with every process of a group on one set, the groups on different sets")
        .isGreaterThanOrEqualTo(seen.size() * 9 / 10);
    assertThat(postmasters.size()).as("embedded servers in the sides' groups").isGreaterThanOrEqualTo(2);

    try (DirectoryStream<Path> left = Files.newDirectoryStream(parent, GROUP_PREFIX + "*")) {
      assertThat(left).as("the sides' groups, once the study ended").isEmpty();
    }
  }
}
