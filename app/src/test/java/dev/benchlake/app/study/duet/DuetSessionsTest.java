package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.LoadgenConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A study's side processes ({@link DuetSessions}) as {@link DuetPair} drives them: a side that
 * refuses its run ends the pair with its own error, a side killed in a step leaves no server, and
 * the affinity swap moves each side's server tree. (One process per CPU set for every pair, warmed
 * up once, each run on a server of its own and none left after: {@code StudyDuetTest}'s study, which
 * runs them anyway. With the per-round swap: {@code taskset}, no cgroup needed; the in-window swap's
 * groups are watched on {@code QuickstartIT}'s quickstart: {@link InWindowGroupWatch}.)
 */
@Tag("integration")
public class DuetSessionsTest {
  @TempDir
  Path dir;

  private CpuList one;
  private CpuList two;

  private void twoCpus() {
    CpuList available = DuetCpus.available();
    assumeTrue(available.size() >= 2, "one CPU");
    DuetCpus cpus = DuetCpus.choose(available, null, null);
    one = cpus.one();
    two = cpus.two();
  }

  private LoadgenConfig config(String name, Map<String, String> settings) {
    return config(name, settings, null, Duration.ofMillis(300));
  }

  private LoadgenConfig config(String name, Map<String, String> settings, Path pgDir, Duration duration) {
    return LoadgenConfig.builder().target(new LoadgenConfig.Embedded(17, settings, pgDir)).workload("sysbench")
        .steps(List.of("point-select")).tables(1).tableSize(1000).mode(LoadgenConfig.Mode.closed(2))
        .duration(duration).warmup(Duration.ZERO).randomSeed(7L).environment(Map.of())
        .outDir(dir.resolve("runs").resolve(name)).build();
  }

  /** The processes a postmaster (one thread) forked, from the kernel's list ({@code /proc/PID/task/PID/children}). */
  private static List<Long> children(long pid) {
    try {
      String text = Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(pid), "children"));
      return text.isBlank() ? List.of() : java.util.Arrays.stream(text.strip().split(" +")).map(Long::valueOf).toList();
    } catch (java.io.IOException e) {
      return List.of(); // it has ended
    }
  }

  /**
   * The postmasters running on a cluster under {@code pg}, from /proc: the processes whose command is
   * {@code postgres -D <a cluster under pg>} and whose parent is not one of them. A process a
   * postmaster has just forked runs under its parent's command line until it sets its own title
   * ({@code postgres: checkpointer}); on a loaded machine that took long enough for a scan to take
   * such a child for the second server, and then compare one server's tree with a part of itself
   * (docs/log.md, 2026-12-06: "both servers on one set").
   */
  public static List<Long> postmasters(Path pg) {
    Map<Long, Long> parents = new java.util.HashMap<>();
    try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        try {
          List<String> args = List.of(new String(Files.readAllBytes(proc.resolve("cmdline")),
              java.nio.charset.StandardCharsets.UTF_8).split("\u0000"));
          int d = args.indexOf("-D");
          if (!args.isEmpty() && args.get(0).endsWith("postgres") && d >= 0 && d + 1 < args.size()
              && args.get(d + 1).startsWith(pg.toString())) {
            long pid = Long.parseLong(proc.getFileName().toString());
            parents.put(pid, ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L));
          }
        } catch (java.io.IOException | RuntimeException e) {
          // it ended while we looked
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return parents.entrySet().stream().filter(e -> !parents.containsKey(e.getValue())).map(Map.Entry::getKey)
        .sorted().toList();
  }

  private List<ProcessHandle> sideProcesses() {
    return ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("--session stdio")).toList();
  }

  @Test
  void aSideKilledInAStepLeavesNoServerAndTheOtherStopsAtOnce() throws Exception {
    twoCpus();
    Path pg = dir.resolve("pg");
    Path logs = dir.resolve("logs");
    StringWriter log = new StringWriter();
    java.util.concurrent.atomic.AtomicLong killedNs = new java.util.concurrent.atomic.AtomicLong();
    Thread killer = new Thread(() -> {
      try {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(90);
        while (!log.toString().contains("both ready") && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        Thread.sleep(500); // in the step
        killedNs.set(System.nanoTime());
        sideProcesses().get(0).destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "kill-a-side");
    try (DuetSessions sessions = new DuetSessions(logs)) {
      DuetPair duet = new DuetPair(logs, new PrintWriter(log, true), SwapRule.PER_ROUND, sessions);
      killer.start();
      assertThatThrownBy(() -> duet.run(new SideRun("a", config("r1-a", Map.of(), pg, Duration.ofSeconds(30)), one),
          new SideRun("b", config("r1-b", Map.of(), pg, Duration.ofSeconds(30)), two)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("was killed (signal 9)")
          .hasMessageContaining("the coordinator stopped the embedded server it left running and removed its cluster");
    }
    killer.join();
    assertThat(java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killedNs.get()))
        .as("s from the kill to the end of a pair whose steps last 30 s").isLessThan(20);
    assertThat(sideProcesses()).as("no side process").isEmpty();
    assertThat(postmasters(pg)).as("no server of the pair").isEmpty();
    try (var left = Files.list(pg)) {
      assertThat(left.map(p -> p.getFileName().toString())).as("no cluster of the pair")
          .allMatch(name -> name.startsWith("benchlake-initdb-"));
    }
  }

  /**
   * Issue 46: the in-window swap by each thread's affinity (what a plain user gets; here forced, as
   * root would with {@code --cpu-swap in-window-affinity}), one pair of one 2 s step, the warm-up
   * skipped: while it runs, every 10 ms, each side's postmaster and every process under it, read from
   * /proc, move between both sets, and every such reading that no move crossed (the swap's own count
   * of its moves) finds each tree on one set, the two servers on different sets; the swap's line says
   * what a move moved.
   */
  @Test
  void theAffinitySwapMovesEachSidesServerTreeBetweenTheSetsInsideTheStep() throws Exception {
    twoCpus();
    Path pg = dir.resolve("pg");
    Path logs = dir.resolve("logs");
    StringWriter log = new StringWriter();
    List<Map<Long, java.util.Set<String>>> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicInteger acrossMoves = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean watching = new java.util.concurrent.atomic.AtomicBoolean(true);
    try (DuetSessions sessions = new DuetSessions(logs)) {
      Thread watch = new Thread(() -> {
        List<Long> servers = List.of();
        while (watching.get()) {
          if (servers.size() != 2) {
            servers = postmasters(pg); // a scan of all of /proc: only until both servers run
          }
          // The swap's own count of its moves, read before and after: a sample that a move crossed (both sides
          // on one set between their two moves, a tree half moved) shows half a move, not where the mover
          // leaves the sides; it is counted apart and judged by no bar. A sample reads each server's own
          // /proc files only, so that most fall between two moves 100 ms apart even on a loaded machine.
          long movesBefore = sessions.moveSequence();
          Map<Long, java.util.Set<String>> sample = new java.util.HashMap<>();
          for (long pm : servers) {
            java.util.Optional<CpuList> own = CpuList.allowedFor(pm);
            if (own.isPresent()) {
              java.util.Set<String> sets = new java.util.HashSet<>(List.of(own.get().toString()));
              for (long child : children(pm)) {
                CpuList.allowedFor(child).ifPresent(c -> sets.add(c.toString()));
              }
              sample.put(pm, sets);
            }
          }
          long movesAfter = sessions.moveSequence();
          if (sample.size() != 2) {
            servers = List.of(); // one has stopped: look again
          } else if (log.toString().contains("both ready")) {
            if (movesBefore == movesAfter && movesBefore % 2 == 0) {
              samples.add(sample);
            } else {
              acrossMoves.incrementAndGet();
            }
          }
          try {
            Thread.sleep(10);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "affinity-watch");
      SwapRule affinity = new SwapRule(CpuSwap.IN_WINDOW, SwapMover.AFFINITY, SwapRule.defaultPeriod());
      DuetPair duet = new DuetPair(logs, new PrintWriter(log, true), affinity, sessions);
      SideRun a = new SideRun("a", config("r1-a", Map.of(), pg, Duration.ofSeconds(2)), one);
      SideRun b = new SideRun("b", config("r1-b", Map.of(), pg, Duration.ofSeconds(2)), two);
      sessions.needsWarmUp(DuetPair.kind(a)); // no warm-up: the swap is what is checked
      watch.start();
      try {
        DuetPair.Outcome outcome = duet.run(a, b);
        assertThat(outcome.a().labels()).containsEntry("cpu_swap", "in-window").containsEntry("cpu_swap_mover",
            "affinity");
        // The pair's moves in the step's measured window, in both sides' manifests, on disk too.
        assertThat(outcome.a().stepCpuSwaps()).singleElement().satisfies(step -> {
          assertThat(step.step()).isEqualTo("point-select");
          assertThat(step.measuredNs()).isEqualTo(Duration.ofSeconds(2).toNanos());
          assertThat(step.moves()).as("moves in 2 s, every 100 ms").isBetween(10, 21);
          assertThat(step.longestMoveNs()).isGreaterThanOrEqualTo(step.meanMoveNs()).isPositive();
          assertThat(step.underWayNs()).isPositive().isLessThanOrEqualTo(step.measuredNs());
        });
        assertThat(outcome.b().stepCpuSwaps()).isEqualTo(outcome.a().stepCpuSwaps());
        assertThat(dev.benchlake.core.raw.RunManifest.read(dir.resolve("runs").resolve("r1-b").resolve("manifest.json"))
            .stepCpuSwaps()).isEqualTo(outcome.a().stepCpuSwaps());
      } finally {
        watching.set(false);
        watch.join();
      }
    }
    assertThat(log.toString()).containsPattern("swapped CPU sets \\d+ times, every 100 ms, .*; a move took \\d+ µs on "
        + "average, at most \\d+ µs, \\d+ threads and processes on average \\(sched_setaffinity\\)");
    // From a real-time thread no move takes a period. The first used to: it looked up side a's postmaster
    // for the first time in the JVM, 650 ms at load 4.7 with the sides on one set meanwhile; the lookup
    // is made at "both ready" now (a plain user's ordinary thread is not held to this: docs/log.md).
    java.util.regex.Matcher line = java.util.regex.Pattern.compile("(\\(a real-time thread\\))?; a move took \\d+ µs on "
        + "average, at most (\\d+) µs").matcher(log.toString());
    assertThat(line.find()).isTrue();
    if (line.group(1) != null) {
      assertThat(Long.parseLong(line.group(2))).as("µs of the longest move, every 100 ms: %s", line.group())
          .isLessThan(100_000);
    }
    assertThat(samples).as("samples of both servers in the step, between moves (%d crossed one)", acrossMoves.get())
        .hasSizeGreaterThan(10);
    Map<Long, java.util.Set<String>> seen = new java.util.HashMap<>();
    List<Map<Long, java.util.Set<String>>> splitTrees = new java.util.ArrayList<>();
    List<Map<Long, java.util.Set<String>>> together = new java.util.ArrayList<>();
    for (Map<Long, java.util.Set<String>> sample : samples) {
      sample.forEach((pm, sets) -> seen.computeIfAbsent(pm, k -> new java.util.HashSet<>()).addAll(sets));
      List<java.util.Set<String>> trees = List.copyOf(sample.values());
      if (trees.get(0).size() != 1 || trees.get(1).size() != 1) {
        splitTrees.add(sample);
      } else if (trees.get(0).equals(trees.get(1))) {
        together.add(sample);
      }
    }
    assertThat(seen.values()).as("each server's processes on both sets").allMatch(
        sets -> sets.equals(java.util.Set.of(one.toString(), two.toString())));
    // Between moves no server's tree is ever split over the two sets: a mover that moved only some
    // of a tree's processes fails here whatever the load.
    assertThat(splitTrees).as("samples between moves with a server's tree on two sets (of %d)", samples.size())
        .isEmpty();
    // Nor are both trees ever on one set: each side's mover moves its own server. (Under a full test
    // run's load 134 of 229 samples were, when the watcher took a postmaster's fresh child for the
    // second server: postmasters' own case below.)
    assertThat(together).as("samples between moves with both servers' trees on one set (of %d)", samples.size())
        .isEmpty();
  }

  /**
   * {@link #postmasters} finds a server by its command ({@code postgres -D <cluster>}), which a
   * process the postmaster has just forked still shows until it sets its own title: here a shell
   * named {@code postgres} with a subshell, its fork, that never sets one. Only the root of the
   * tree is a postmaster.
   */
  @Test
  void postmastersAreTheRootsOfTheirTreesNotAForkThatStillShowsTheirCommand() throws Exception {
    Path fake = Files.copy(Path.of("/bin/sh"), Files.createDirectories(dir.resolve("bin")).resolve("postgres"));
    Path pg = dir.resolve("pg");
    Process server = new ProcessBuilder(fake.toString(), "-c", "(while :; do sleep 1; done) & wait", "-D",
        pg.resolve("benchlake-pg17-1").resolve("data").toString()).start();
    try {
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (server.children().findAny().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(server.children().toList()).as("the fork, under the same command").hasSize(1);
      assertThat(postmasters(pg)).containsExactly(server.pid());
    } finally {
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly();
    }
  }

  @Test
  void aSideThatRefusesItsRunEndsThePairWithItsOwnErrorAndLeavesNoProcess() throws Exception {
    twoCpus();
    Path logs = dir.resolve("logs");
    try (DuetSessions sessions = new DuetSessions(logs)) {
      DuetPair duet = new DuetPair(logs, new PrintWriter(new StringWriter(), true), SwapRule.PER_ROUND, sessions);
      assertThatThrownBy(() -> duet.run(new SideRun("a", config("r1-a", Map.of()), one),
          new SideRun("b", config("r1-b", Map.of("work_mem", "lots")), two)))
          .isInstanceOf(BadInputException.class)
          .hasMessageStartingWith("side b (")
          .hasMessageContaining("work_mem");
    }
    assertThat(sideProcesses()).as("no side process once the study ended").isEmpty();
    assertThat(dir.resolve("runs").resolve("r1-b")).doesNotExist();
  }
}
