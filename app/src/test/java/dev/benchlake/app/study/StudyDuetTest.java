package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetSessions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.app.study.duet.CgroupCpusets;
import dev.benchlake.app.study.duet.DuetPair;
import dev.benchlake.app.study.duet.DuetSessionsTest;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.StepWindow;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.core.testing.CommandRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A duet end to end through the real command line (issue 28.1, 28.2): {@code study ab} of
 * PostgreSQL 14 against 17, its sets swapped between rounds only ({@code --cpu-swap per-round}: each
 * side pinned with taskset; {@code QuickstartIT} watches the swap inside the window), two rounds and two a/a rounds of two 1 s steps. While it runs, a
 * watcher reads the affinity of every process it starts from /proc: each side's loadgen JVM, its
 * postmaster and its backends are on the side's CPU set, the two sets disjoint and swapped every
 * round; both sides' steps start at the same instant and are recorded with the same window; the
 * runs carry the design, round, side, cpus and control labels. The side processes are warmed up
 * once, each run has a server start of its own, and nothing of the sides is left afterwards.
 */
@Tag("integration")
class StudyDuetTest {
  private static final List<String> STEPS = List.of("point-select", "update-index");

  @Test
  void bothSidesRunAtOnceOnDisjointSetsSwappedEveryRoundOverTheSameWindowsWithAnAaControl(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("study");
    Path pg = Files.createDirectories(dir.resolve("pg"));
    ProcessWatch watch = new ProcessWatch(pg.toString());
    watch.start();
    CommandRun run;
    try {
      run = CommandRun.of(Cli.commandLine(new StudyCommand()), "ab", "--a-pg", "14", "--b-pg", "17",
          "--design", "duet", "--cpu-swap", "per-round", "--rounds", "2", "--aa-rounds", "2",
          "--steps", String.join(",", STEPS),
          "--clients", "2", "--duration", "1s", "--warmup", "500ms", "--table-size", "2000", "--seed", "11",
          "--pg-dir", pg.toString(), "--out", out.toString(), "--warehouse", dir.resolve("wh").toString(),
          "--margin", "10%", "--master", "local[2]", "--profile");
    } finally {
      watch.finish();
    }
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    // Without --verbose: a line a round, each kind counted on its own, and no line per pair or step (issue 49).
    assertThat(run.stderr()).contains("the a/a control").contains("study: round 1 of 2: ")
        .contains("study: round 2 of 2: about ").contains("study: a/a control round 2 of 2: about ")
        .contains("study: warmed up in ").doesNotContain("both ready").doesNotContain("both sides at once")
        .doesNotContain("study: ingested").doesNotContain("\u001b");
    // The side processes (DuetSessions) are warmed up once for the study, and their warm-up runs are
    // not kept; none of them outlives it.
    assertThat(run.stderr()).containsOnlyOnce("study: warming up the sides' JVMs: " + DuetPair.WARM_UP_PASSES
        + " passes of 1 kind of pair (not kept)").containsOnlyOnce("study: warmed up in ");
    try (var logs = Files.list(out.resolve("logs"))) {
      assertThat(logs.filter(Files::isDirectory).toList()).as("the warm-up passes' runs, deleted").isEmpty();
    }
    assertThat(ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("--session stdio")).toList())
        .as("no side process once the study ended").isEmpty();

    // --profile: where perf cannot profile here, one warning before the study, not one a run.
    String noProfiles = dev.benchlake.loadgen.Loadgen.whyNoProfiles();
    assertThat(run.stderr().split("no step will be profiled", -1)).hasSize(noProfiles == null ? 1 : 2);

    // study.json: the design, its sets, its control, and every run in order.
    JsonNode study = Json.mapper().readTree(out.resolve("study.json").toFile());
    assertThat(study.get("design").asText()).isEqualTo("duet");
    assertThat(study.get("rounds").asInt()).isEqualTo(2);
    assertThat(study.get("aa_rounds").asInt()).isEqualTo(2);
    assertThat(study.get("controls").get("aa").get("selector").asText()).isEqualTo("control=aa");
    CpuList one = CpuList.parse(study.get("cpu_sets").get("one").asText());
    CpuList two = CpuList.parse(study.get("cpu_sets").get("two").asText());
    assertThat(one.intersects(two)).isFalse();
    assertThat(study.get("order")).hasSize(8);

    // Every run: its labels and the CPU sets its client, postmaster and a backend had (from the kernel).
    Map<Integer, Map<String, RunManifest>> byRound = new TreeMap<>();
    Map<String, RunManifest> byDataDir = new TreeMap<>();
    int profiledSteps = 0;
    List<Object> serverStarts = new ArrayList<>();
    for (JsonNode r : study.get("order")) {
      RunManifest m = RunManifest.read(out.resolve(r.get("run_dir").asText()).resolve("manifest.json"));
      assertThat(m.status()).isEqualTo(RunStatus.COMPLETE);
      serverStarts.add(m.target().serverStart());
      Map<String, String> labels = m.labels();
      assertThat(labels).containsEntry("design", "duet").containsEntry("source", "study-ab")
          .containsEntry("study_id", study.get("study_id").asText()).containsEntry("cpu_swap", "per-round")
          .containsKeys("round", "side", "cpus");
      assertThat(m.cpuAffinity().client()).isEqualTo(labels.get("cpus"));
      assertThat(m.cpuAffinity().server()).as("the postmaster inherits the client's set").isEqualTo(labels.get("cpus"));
      assertThat(m.cpuAffinity().backend()).as("and its backends").isEqualTo(labels.get("cpus"));
      byRound.computeIfAbsent(Integer.parseInt(labels.get("round")), k -> new TreeMap<>()).put(labels.get("side"), m);
      // Every measured run, a/a rounds among them, asked its loadgen for a profile of each step at the default
      // rate: it has one, or says why not (where perf may run, at load 17-20 perf still took no sample of a 1 s
      // step, or had written nothing when stopped).
      for (var step : m.stepResources()) {
        assertThat(step.profile()).as("the profile of %s in %s", step.step(), r.get("run_dir").asText()).isNotNull();
        if (step.profile().notProfiled() == null) {
          assertThat(step.profile().hz()).isEqualTo(1000);
          assertThat(out.resolve(r.get("run_dir").asText()).resolve(step.profile().summary())).isRegularFile();
          profiledSteps++;
        } else {
          String why = step.profile().notProfiled();
          assertThat(why).isNotBlank();
          if (noProfiles != null) {
            assertThat(why).isEqualTo(noProfiles);
          }
        }
      }
      byDataDir.put(Path.of(m.target().serverStart().dataDirectory()).getParent().getFileName().toString(), m);
    }
    assertThat(byRound.keySet()).containsExactly(1, 2, 3, 4);
    assertThat(serverStarts).as("a server start per run").hasSize(8).doesNotHaveDuplicates();
    List<String> abSetsOfA = new ArrayList<>();
    List<String> aaSetsOfA = new ArrayList<>();
    List<String> setsOfAInOrder = new ArrayList<>();
    for (Map<String, RunManifest> pair : byRound.values()) {
      RunManifest a = pair.get("a");
      RunManifest b = pair.get("b");
      boolean aa = "aa".equals(a.labels().get("control"));
      assertThat(b.labels().get("control")).isEqualTo(a.labels().get("control"));
      assertThat(a.target().major()).isEqualTo(14);
      assertThat(b.target().major()).isEqualTo(aa ? 14 : 17);
      CpuList setA = CpuList.parse(a.labels().get("cpus"));
      CpuList setB = CpuList.parse(b.labels().get("cpus"));
      assertThat(setA.intersects(setB)).isFalse();
      assertThat(Set.of(setA, setB)).containsExactlyInAnyOrder(one, two);
      (aa ? aaSetsOfA : abSetsOfA).add(setA.toString());
      setsOfAInOrder.add(setA.equals(one) ? "one" : "two");

      // Both sides' steps: the same window, shared, and each side's tasks inside it.
      assertThat(a.stepWindows()).extracting(StepWindow::step).containsExactlyElementsOf(STEPS);
      assertThat(a.stepWindows()).isEqualTo(b.stepWindows());
      assertThat(a.stepWindows()).allMatch(StepWindow::shared);
      for (RunManifest side : List.of(a, b)) {
        List<TaskRecord> tasks = tasks(out, side);
        for (StepWindow w : side.stepWindows()) {
          List<Long> measured = tasks.stream().filter(t -> t.step().equals(w.step()) && !t.warmup())
              .map(t -> side.originEpochNs() + t.intendedStartNs()).toList();
          assertThat(measured).isNotEmpty().allMatch(t -> t >= w.measuredFromEpochNs() && t < w.measuredToEpochNs());
          // Within 0.4 s of the shared start: each side has one CPU for its JVM and its server, and a
          // loaded CI machine once took 171 ms; a side that waited for the other would be seconds late.
          long first = tasks.stream().filter(t -> t.step().equals(w.step()))
              .mapToLong(t -> side.originEpochNs() + t.intendedStartNs()).min().orElseThrow();
          assertThat(first - w.startEpochNs()).as("side %s's first task of %s after the shared start, ns",
              side.labels().get("side"), w.step()).isBetween(0L, 400_000_000L);
        }
      }
    }
    // The two rounds of each kind: one each way round, in the order the seed drew and study.json records.
    assertThat(abSetsOfA).containsExactlyInAnyOrder(one.toString(), two.toString());
    assertThat(aaSetsOfA).containsExactlyInAnyOrder(one.toString(), two.toString());
    assertThat(study.get("cpu_sets").get("side_a")).extracting(JsonNode::asText)
        .containsExactlyElementsOf(setsOfAInOrder);

    // What the watcher read while the study ran: two side processes for the whole study (DuetSessions),
    // each on one set all along, one on each; every postmaster and backend on the set of the run whose
    // server it was (the warm-up passes' servers, whose runs are not kept, on one of the sets).
    assertThat(watch.clients).as("the study's side processes").hasSize(2);
    watch.clients.values().forEach(allowed -> assertThat(allowed).as("a side process's sets").hasSize(1));
    assertThat(watch.clients.values().stream().flatMap(Set::stream).toList())
        .containsExactlyInAnyOrder(one.toString(), two.toString());
    assertThat(watch.servers).as("postmasters seen").hasSizeGreaterThanOrEqualTo(6);
    int warmUpServers = 0;
    for (Map.Entry<String, String> server : watch.servers.entrySet()) {
      RunManifest owner = byDataDir.get(server.getKey());
      if (owner == null) {
        warmUpServers++;
        assertThat(server.getValue()).as("a warm-up's postmaster").isIn(one.toString(), two.toString());
      } else {
        assertThat(server.getValue()).as("postmaster of " + server.getKey()).isEqualTo(owner.labels().get("cpus"));
      }
    }
    assertThat(warmUpServers).as("servers of no kept run: the warm-up passes' (2 sides each)")
        .isLessThanOrEqualTo(2 * DuetPair.WARM_UP_PASSES);
    assertThat(watch.backends).as("servers whose backends were seen").isNotEmpty();
    watch.backends.forEach((dataDir, allowed) -> {
      RunManifest owner = byDataDir.get(dataDir);
      if (owner == null) {
        assertThat(allowed).as("a warm-up's backends").hasSize(1).isSubsetOf(one.toString(), two.toString());
      } else {
        assertThat(allowed).as("backends of " + dataDir).containsOnly(owner.labels().get("cpus"));
      }
    });

    // Compare and its a/a control were written, both at the margin given (issue 45.1: study ab takes the
    // statistics options as every study does).
    JsonNode compare = Json.mapper().readTree(out.resolve("compare/report.json").toFile());
    JsonNode aa = Json.mapper().readTree(out.resolve("aa/report.json").toFile());
    assertThat(aa.toString()).contains("control=aa");
    assertThat(compare.get("margin").asDouble()).isEqualTo(0.1);
    assertThat(aa.get("margin").asDouble()).isEqualTo(0.1);
    String md = Files.readString(out.resolve("compare/report.md"));
    if (profiledSteps > 0) {
      // The report links the steps' profiles by round and side, and sets the sides' top functions side by side.
      assertThat(md).contains("### Server CPU profiles", " at 1000 Hz): [round ", "](file:", "/profiles/",
          "| function | ");
      assertThat(Files.readString(out.resolve("compare/report.html"))).contains("<h3 id=\"profiles\">");
    } else {
      assertThat(md).doesNotContain("### Server CPU profiles").contains("not profiled: ");
    }
  }

  /**
   * Accuracy, not only precision (issue 46.3): {@code benchlake calibrate} runs a duet of PostgreSQL 17
   * against itself, side b's client stretching every task by 10 % ({@code --handicap-stretch 0.1}), 6
   * rounds and 2 a/a rounds of a 2 s point-select. Always: the estimate lies above 1 (the right
   * direction), the table and report.json carry the row with its expected ratio 1.100, and side b's
   * comparison runs, and only they, carry the handicap's label. Where the study could resolve the
   * handicap (its interval's detectable size at most 10 %: a quiet machine; on this project's VM with
   * four builds beside it, load average 14, it was 16–128 %), it must also be called slower; and
   * where the scope's other work on the machine was at most 5 % of its CPU time (a quiet machine),
   * its 95 % interval must hold 1.10. Tolerance: the interval is widened by 2 % each way before that
   * check, since an exact 95 % interval misses one run in 20 by chance, and such a miss falls just
   * past its edge; a method biased by more than 2 % still fails. Under other work every estimate of
   * this handicap so far leaned high (+0.5 % to +15 %; CI's, beside the notebooks: 1.160 [1.124,
   * 1.196]), so there the interval is not held to 1.10. Parts a machine cannot meet are skipped with
   * the figures (an assumption), not passed.
   */
  @Test
  void calibrateRecoversAKnownTenPercentHandicapAtItsSize(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("cal");
    CommandRun run = CommandRun.of(Cli.commandLine(new CalibrateCommand()), "--designs", "duet", "--sizes", "10%",
        "--rounds", "6", "--aa-rounds", "2", "--steps", "point-select", "--duration", "2s", "--warmup", "500ms",
        "--table-size", "2000", "--seed", "46", "--pg-dir", Files.createDirectories(dir.resolve("pg")).toString(),
        "--out", out.toString(), "--master", "local[2]");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stderr()).contains("calibrate: study 1 of 1: duet, side b +10% (expected ratio 1.100)");
    JsonNode rows = Json.mapper().readTree(out.resolve("report.json").toFile()).get("rows");
    assertThat(rows).hasSize(1);
    JsonNode row = rows.get(0);
    String seen = row.toString() + "\n" + run.stdout();
    assertThat(row.get("expected_ratio").asDouble()).isEqualTo(1.1);
    assertThat(row.get("ratio").asDouble()).as(seen).isGreaterThan(1);
    assertThat(run.stdout()).contains("| duet | 10% | `point-select` | 1.100 |").containsIgnoringCase("a/a control");
    JsonNode study = Json.mapper().readTree(out.resolve("duet-10pct/study.json").toFile());
    for (JsonNode r : study.get("order")) {
      Map<String, String> labels = RunManifest.read(out.resolve("duet-10pct").resolve(r.get("run_dir").asText())
          .resolve("manifest.json")).labels();
      boolean handicapped = labels.get("side").equals("b") && !"aa".equals(labels.get("control"));
      assertThat(labels.get("handicap_stretch")).as(labels.toString()).isEqualTo(handicapped ? "0.1" : null);
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(row.get("detectable").asDouble() <= 0.1,
        () -> "this machine was too busy to resolve a 10 % handicap: " + seen);
    assertThat(row.get("verdict").asText()).as(seen).isEqualTo("slower");
    // The scope says how much of the machine other work took; at its size only on a quiet one.
    String otherWork = Json.mapper().readTree(out.resolve("report.json").toFile()).path("scope").path("duet")
        .path("other_work").asText();
    assertThat(otherWork).as(seen).matches("[0-9.]+ % of the machine's CPU time .*");
    org.junit.jupiter.api.Assumptions.assumeTrue(Double.parseDouble(otherWork.split(" ")[0]) <= 5,
        () -> "other work took more than 5 % of the machine, where estimates of a known handicap lean high: " + seen);
    assertThat(row.get("ci95").get(0).asDouble() / 1.02).as(seen).isLessThanOrEqualTo(1.1);
    assertThat(row.get("ci95").get(1).asDouble() * 1.02).as(seen).isGreaterThanOrEqualTo(1.1);
  }

  /**
   * The coordinator of a duet killed outright ({@code KILL}) or interrupted ({@code TERM}) as soon
   * as its sides run their first step (of 30 s): the sides see their stdin end and stop at once,
   * each stopping its server; with cgroup groups (root), the sides (killed coordinator) or the
   * coordinator's shutdown hook (interrupted) remove them. Within 20 s no side JVM, no server, no
   * cluster and no group of the study is left, and study.json says the study is not complete (and,
   * interrupted, that it was cut short). Before, the sides ran their step to its end, and the groups
   * stayed until the next study.
   */
  @ParameterizedTest
  @ValueSource(strings = {"KILL", "TERM"})
  void aCoordinatorKilledOrInterruptedLeavesNothingRunning(String signal, @TempDir Path dir) throws Exception {
    Path out = dir.resolve("study");
    Path err = dir.resolve("coordinator.err");
    // The servers go to the temp folder, where the initdb template of earlier tests is: their owner
    // files say which are this study's.
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Process coordinator = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "dev.benchlake.app.Benchlake", "study", "ab", "--a-pg", "17",
        "--b-pg", "17", "--design", "duet", "--rounds", "2", "--aa-rounds", "2", "--steps", "point-select",
        "--clients", "1", "--duration", "30s", "--warmup", "0s", "--table-size", "1000", "--seed", "5",
        "--out", out.toString(), "--warehouse", dir.resolve("wh").toString(), "--verbose")
        .redirectErrorStream(true).redirectOutput(err.toFile()).start();
    String groups = "benchlake-duet-" + coordinator.pid() + "-";
    Optional<Path> cgroups = CgroupCpusets.locate().map(CgroupCpusets::parent);
    try {
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
      while (!(Files.exists(err) && Files.readString(err).contains("both ready"))) {
        assertThat(coordinator.isAlive()).as("the study runs: %s", Files.exists(err) ? Files.readString(err) : "")
            .isTrue();
        assertThat(System.nanoTime()).as("the sides reach their first step").isLessThan(deadline);
        Thread.sleep(100);
      }
      List<Path> clusters = clustersOf(tmp, out);
      assertThat(clusters).as("both sides' servers' clusters").hasSize(2);
      assertThat(clusters.stream().flatMap(c -> DuetSessionsTest.postmasters(c).stream())).as("their servers")
          .hasSize(2);
      Thread.sleep(500);
      if (signal.equals("KILL")) {
        coordinator.destroyForcibly();
      } else {
        coordinator.destroy();
      }
      assertThat(coordinator.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      long goneNs = System.nanoTime();
      List<String> left;
      do {
        Thread.sleep(200);
        left = new ArrayList<>();
        for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
          if (p.info().commandLine().orElse("").contains("-D" + dev.benchlake.loadgen.db.ServerOwner.STUDY_PROPERTY
              + "=" + out)) {
            left.add("side " + p.pid());
          }
        }
        for (Path cluster : clusters) {
          left.addAll(DuetSessionsTest.postmasters(cluster).stream().map(pid -> "server " + pid).toList());
          if (Files.exists(cluster)) {
            left.add("cluster " + cluster);
          }
        }
        if (cgroups.isPresent()) {
          left.addAll(listGroups(cgroups.get(), groups));
        }
      } while (!left.isEmpty() && System.nanoTime() - goneNs < java.util.concurrent.TimeUnit.SECONDS.toNanos(20));
      assertThat(left).as("what the study started, 20 s after its coordinator was gone (%s)", signal).isEmpty();
      JsonNode study = Json.mapper().readTree(out.resolve("study.json").toFile());
      assertThat(study.get("complete").asBoolean(true)).as("study.json's complete").isFalse();
      if (signal.equals("TERM")) {
        assertThat(study.get("cut_short").get("sentence").asText())
            .isEqualTo("Cut short before round 1 of 4 ended: interrupted (Ctrl-C or SIGTERM).");
      }
    } finally {
      coordinator.destroyForcibly();
    }
  }

  /** The clusters in {@code parent} whose owner file names {@code study}. */
  private static List<Path> clustersOf(Path parent, Path study) throws IOException {
    try (var dirs = Files.list(parent)) {
      return dirs.filter(d -> d.getFileName().toString().startsWith("benchlake-pg"))
          .filter(d -> dev.benchlake.loadgen.db.ServerOwner.read(d).map(o -> study.toString().equals(o.study()))
              .orElse(false)).toList();
    }
  }

  private static List<String> listGroups(Path parent, String prefix) throws IOException {
    try (var g = Files.list(parent)) {
      return g.filter(d -> d.getFileName().toString().startsWith(prefix)).map(d -> "group " + d).toList();
    }
  }

  private static List<TaskRecord> tasks(Path out, RunManifest m) throws IOException {
    String dirName = "r" + m.labels().get("round") + ("aa".equals(m.labels().get("control")) ? "-aa" : "") + "-"
        + m.labels().get("side");
    List<String> lines = Files.readAllLines(out.resolve("runs").resolve(dirName).resolve("tasks.csv"));
    return lines.subList(1, lines.size()).stream().map(TaskCsv::parse).toList();
  }

  /**
   * Reads /proc every 200 ms: the allowed CPUs of the study's side processes (by pid),
   * of its postmasters (by their cluster's folder) and of their backends.
   */
  private static final class ProcessWatch extends Thread {
    final Map<Long, Set<String>> clients = new ConcurrentHashMap<>();
    final Map<String, String> servers = new ConcurrentHashMap<>();
    final Map<String, Set<String>> backends = new ConcurrentHashMap<>();
    private final Map<Long, String> postmasters = new ConcurrentHashMap<>();
    private final String pg;
    private volatile boolean running = true;

    ProcessWatch(String pg) {
      super("process-watch");
      setDaemon(true);
      this.pg = pg;
    }

    @Override
    public void run() {
      while (running) {
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
          for (Path proc : procs) {
            look(proc);
          }
          Thread.sleep(200);
        } catch (IOException | InterruptedException e) {
          return;
        }
      }
    }

    private void look(Path proc) {
      try {
        long pid = Long.parseLong(proc.getFileName().toString());
        List<String> args = List.of(new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
            .split("\u0000"));
        Optional<CpuList> allowed = CpuList.allowedFor(pid);
        if (allowed.isEmpty() || args.isEmpty()) {
          return;
        }
        // The side's JVM itself: the taskset that starts it carries the same arguments, and until it
        // has pinned itself and exec'ed java it has the coordinator's CPUs.
        if (args.get(0).endsWith("/java") && args.contains("dev.benchlake.loadgen.LoadgenMain")
            && args.contains("--session")
            && ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid)
                .filter(p -> p == ProcessHandle.current().pid()).isPresent()) {
          clients.computeIfAbsent(pid, k -> ConcurrentHashMap.newKeySet()).add(allowed.get().toString());
        } else if (args.get(0).endsWith("postgres") && args.contains("-D")) {
          String data = args.get(args.indexOf("-D") + 1);
          if (data.startsWith(pg)) {
            String cluster = Path.of(data).getParent().getFileName().toString();
            postmasters.put(pid, cluster);
            servers.put(cluster, allowed.get().toString());
          }
        } else if (args.get(0).startsWith("postgres:")) {
          String stat = Files.readString(proc.resolve("stat"), StandardCharsets.UTF_8);
          long parent = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
          String cluster = postmasters.get(parent);
          if (cluster != null) {
            backends.computeIfAbsent(cluster, k -> ConcurrentHashMap.newKeySet()).add(allowed.get().toString());
          }
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
