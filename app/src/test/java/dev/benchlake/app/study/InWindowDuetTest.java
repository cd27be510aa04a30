package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetSessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.app.study.duet.CgroupCpusets;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.testing.CommandRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The duet's in-window swap end to end ({@code study ab --cpu-swap in-window}, PostgreSQL 14 against
 * itself), where this machine lets cgroup cpuset groups be made (root): while it runs, a watcher
 * reads every process of the sides' groups from /proc every 25 ms. Each side's client JVM, its
 * postmaster and backends are in its side's group, always on one of the two sets, the two sides on
 * different sets, and each side on both sets within a round; the groups are gone afterwards, and
 * the runs and study.json say how the sets were swapped.
 */
@Tag("integration")
class InWindowDuetTest {
  private static final Pattern GROUP = Pattern.compile("benchlake-duet-" + ProcessHandle.current().pid() + "-(one|two)");

  @Test
  void eachSidesProcessesMoveTogetherBetweenTheSetsInsideEveryStep(@TempDir Path dir) throws Exception {
    CgroupCpusets.Found found = CgroupCpusets.find();
    assumeTrue(found.cpusets().isPresent(), found.why());
    assumeTrue(DuetCpus.available().size() >= 2, "one CPU");
    Path out = dir.resolve("study");
    GroupWatch watch = new GroupWatch();
    watch.start();
    CommandRun run;
    try {
      run = CommandRun.of(Cli.commandLine(new StudyCommand()), "ab", "--a-pg", "14", "--b-pg", "14",
          "--design", "duet", "--cpu-swap", "in-window", "--rounds", "2", "--aa-rounds", "2",
          "--steps", "point-select", "--clients", "2", "--duration", "2s", "--warmup", "500ms",
          "--table-size", "2000", "--seed", "11", "--pg-dir", Files.createDirectories(dir.resolve("pg")).toString(),
          "--out", out.toString(), "--warehouse", dir.resolve("wh").toString(), "--master", "local[2]", "--verbose");
    } finally {
      watch.finish();
    }
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stderr()).contains("every 100 ms inside each step").contains("swapped CPU sets");

    JsonNode study = Json.mapper().readTree(out.resolve("study.json").toFile());
    JsonNode sets = study.get("cpu_sets");
    assertThat(sets.get("swap").asText()).isEqualTo("in-window");
    assertThat(sets.get("swap_rule").asText()).contains("every 100 ms");
    CpuList one = CpuList.parse(sets.get("one").asText());
    CpuList two = CpuList.parse(sets.get("two").asText());
    for (JsonNode r : study.get("order")) {
      RunManifest m = RunManifest.read(out.resolve(r.get("run_dir").asText()).resolve("manifest.json"));
      assertThat(m.labels()).containsEntry("cpu_swap", "in-window");
      assertThat(m.stepCpuSwaps()).as("the pair's moves in each step's window").singleElement()
          .satisfies(s -> assertThat(s.moves()).isPositive());
    }
    assertThat(run.stdout()).as("the report's scope").contains("CPU-set moves by cgroup cpuset groups, a move under way ");

    assertThat(watch.samples).as("samples with both sides' processes").hasSizeGreaterThan(100);
    Set<CpuList> seenA = new HashSet<>();
    Set<CpuList> seenB = new HashSet<>();
    int apart = 0;
    for (Map<String, Set<CpuList>> sample : watch.samples) {
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
        .isGreaterThanOrEqualTo(watch.samples.size() * 9 / 10);
    assertThat(watch.postmastersInGroups).as("embedded servers in the sides' groups").isGreaterThanOrEqualTo(2);

    try (DirectoryStream<Path> left = Files.newDirectoryStream(found.cpusets().get().parent(),
        "benchlake-duet-" + ProcessHandle.current().pid() + "-*")) {
      assertThat(left).as("the sides' groups, once the study ended").isEmpty();
    }
  }

  /** Every 25 ms: the CPU sets of every process in the sides' groups, by group. */
  private static final class GroupWatch extends Thread {
    final List<Map<String, Set<CpuList>>> samples = new ArrayList<>();
    volatile int postmastersInGroups;
    private final Set<Long> postmasters = ConcurrentHashMap.newKeySet();
    private volatile boolean running = true;

    GroupWatch() {
      super("group-watch");
      setDaemon(true);
    }

    @Override
    public void run() {
      while (running) {
        Map<String, Set<CpuList>> sample = Map.of("one", new HashSet<>(), "two", new HashSet<>());
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
          for (Path proc : procs) {
            look(proc, sample);
          }
          if (!sample.get("one").isEmpty() && !sample.get("two").isEmpty()) {
            synchronized (samples) {
              samples.add(sample);
            }
          }
          Thread.sleep(25);
        } catch (IOException | InterruptedException e) {
          return;
        }
      }
    }

    private void look(Path proc, Map<String, Set<CpuList>> sample) {
      try {
        Matcher m = GROUP.matcher(Files.readString(proc.resolve("cgroup"), StandardCharsets.UTF_8));
        if (!m.find()) {
          return;
        }
        long pid = Long.parseLong(proc.getFileName().toString());
        CpuList.allowedFor(pid).ifPresent(sample.get(m.group(1))::add);
        String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
        if (cmdline.contains("postgres\u0000-D") && postmasters.add(pid)) {
          postmastersInGroups = postmasters.size();
        }
      } catch (IOException | RuntimeException e) {
        // the process ended while we looked
      }
    }

    void finish() throws InterruptedException {
      running = false;
      join();
    }
  }
}
