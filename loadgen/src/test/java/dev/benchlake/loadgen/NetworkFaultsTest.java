package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The network and the server turn hostile in the middle of a run, beyond the crash and restart of
 * {@link ServerFaultsTest}: connections reset, the port refusing connections, a black hole that
 * swallows every byte (only timeouts can end those waits), the server's pg_hba.conf rejecting the
 * user. Each time: one line in tasks.csv per attempt, every failure with its SQLSTATE, the run
 * completes when the fault ends, and no call waits longer than its timeout.
 */
@org.junit.jupiter.api.Tag("integration")
class NetworkFaultsTest {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);
  /** Generous: a run of at most 14 s whose every call is bounded by the timeouts above. */
  private static final long RUN_LIMIT_S = 120;

  @TempDir
  Path tmp;

  private final EmbeddedServer server = TestServers.shared();

  /**
   * A run of three clients that never pause, for {@code duration}: long enough for its faults (from
   * its first tasks on) and a few seconds of tasks after them; each second of it is about two cores'
   * worth of work, on the loadgen module's share of a CI run.
   */
  private LoadgenConfig config(String url, String user, Path out, Duration duration) {
    return LoadgenConfig.builder().target(new LoadgenConfig.External(url, user)).environment(Map.of())
        .workload("point-select").tableSize(1000).mode(LoadgenConfig.Mode.closed(3)).duration(duration)
        .connectTimeout(CONNECT_TIMEOUT).queryTimeout(QUERY_TIMEOUT).randomSeed(7L).outDir(out).build();
  }

  /** Starts the run, waits for its first tasks, applies {@code faults}, and returns the finished run. */
  private RunResult runWith(LoadgenConfig config, Fault faults) throws Exception {
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> Loadgen.run(config, ProgressListener.NONE));
    Path tasks = RunDirectory.tasks(config.outDir());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!(Files.exists(tasks) && Files.size(tasks) > 4_000) && System.nanoTime() < deadline && !run.isDone()) {
      Thread.sleep(50);
    }
    faults.apply();
    // Never hangs: the run ends by itself, well within this limit.
    return run.get(RUN_LIMIT_S, TimeUnit.SECONDS);
  }

  interface Fault {
    void apply() throws Exception;
  }

  @Test
  void resetsRefusalsAndABlackHoleAreRecordedAndTheRunCompletes() throws Exception {
    Path out = tmp.resolve("network");
    try (TcpProxy proxy = new TcpProxy(server.port())) {
      String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres";
      // 7.5 s of faults after the first tasks, in a run of 14 s.
      RunResult result = runWith(config(url, server.user(), out, Duration.ofSeconds(14)), () -> {
        proxy.refuse();
        proxy.dropAll();
        Thread.sleep(1_500);
        proxy.heal();
        Thread.sleep(1_500);
        proxy.blackhole();
        Thread.sleep(4_500);
        proxy.heal();
      });
      assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    }
    List<TaskRecord> failed = assertOneLinePerAttemptAndClassified(out);
    assertThat(failed).as("resets and refusals").anyMatch(t -> t.sqlstate().startsWith("08"));
    long timeoutNs = QUERY_TIMEOUT.toNanos() * 9 / 10;
    assertThat(failed).as("calls ended by a timeout in the black hole")
        .anyMatch(t -> t.endNs() - t.startNs() >= timeoutNs);
  }

  @Test
  void aServerThatRejectsTheUserMidRunIsRecordedAndTheRunCompletes() throws Exception {
    String user = "lg_refused";
    String rule = "host all " + user + " all reject # NetworkFaultsTest\n";
    TestServers.sql(server, "drop role if exists " + user, "create role " + user + " login superuser");
    Path hba = hbaFile();
    String original = Files.readString(hba, StandardCharsets.UTF_8);
    Path out = tmp.resolve("hba");
    try {
      // 2 s of rejection after the first tasks, in a run of 7 s (it was 14 s: 7 s more of tasks after it).
      String url = server.jdbcUrl().replaceFirst("\\?.*$", "");
      RunResult result = runWith(config(url, user, out, Duration.ofSeconds(7)), () -> {
        Files.writeString(hba, rule + original, StandardCharsets.UTF_8);
        TestServers.sql(server, "select pg_reload_conf()",
            "select pg_terminate_backend(pid) from pg_stat_activity where usename = '" + user + "'");
        Thread.sleep(2_000);
        Files.writeString(hba, original, StandardCharsets.UTF_8);
        TestServers.sql(server, "select pg_reload_conf()");
      });
      assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    } finally {
      Files.writeString(hba, original, StandardCharsets.UTF_8);
      TestServers.sql(server, "select pg_reload_conf()");
    }
    List<TaskRecord> failed = assertOneLinePerAttemptAndClassified(out);
    assertThat(failed).as("terminated by the administrator").anyMatch(t -> t.sqlstate().equals("57P01"));
    assertThat(failed).as("rejected by pg_hba.conf").anyMatch(t -> t.sqlstate().equals("28000"));
  }

  /**
   * A server that goes away for good: the run ends interrupted after --max-outage, and its error
   * text, the printed summary, the manifest and tasks.csv give one count per SQLSTATE. Clients
   * whose connect was still waiting when the outage was called record their failure after it: a
   * count taken when the run was stopped is short by those (issue 25: "08001 = 27", summary 29).
   */
  @Test
  void aServerThatGoesAwayGivesOneCountOfItsErrorsEverywhere() throws Exception {
    Path out = tmp.resolve("gone");
    RunResult result;
    try (TcpProxy proxy = new TcpProxy(server.port())) {
      String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres";
      LoadgenConfig config = LoadgenConfig.builder().target(new LoadgenConfig.External(url, server.user()))
          .environment(Map.of()).workload("point-select").tableSize(1000).mode(LoadgenConfig.Mode.closed(4))
          .duration(Duration.ofSeconds(60)).connectTimeout(CONNECT_TIMEOUT).queryTimeout(QUERY_TIMEOUT)
          .maxOutage(Duration.ofSeconds(3)).randomSeed(7L).outDir(out).build();
      // Connections swallowed whole: every client's reconnect waits out its connect timeout, so
      // failures keep ending after the outage is called.
      result = runWith(config, () -> {
        proxy.blackhole();
        proxy.dropAll();
      });
    }
    assertThat(result.status()).isEqualTo(RunStatus.INTERRUPTED);
    Map<String, Long> inTasksCsv = TestServers.tasks(out).stream().filter(t -> !t.ok())
        .collect(Collectors.groupingBy(TaskRecord::sqlstate, TreeMap::new, Collectors.counting()));
    assertThat(inTasksCsv).isNotEmpty();
    RunManifest m = TestServers.manifest(out);
    assertThat(m.summary().errorsBySqlstate()).as("the manifest's counts").isEqualTo(inTasksCsv);
    java.io.StringWriter printed = new java.io.StringWriter();
    LoadgenCommand.printSummary(result, new java.io.PrintWriter(printed));
    for (Map.Entry<String, Long> e : inTasksCsv.entrySet()) {
      assertThat(m.error()).as("the error text").contains(e.getKey() + "=" + e.getValue());
      assertThat(printed.toString()).as("the printed summary").containsPattern(
          "(?m)^" + e.getKey() + "\\s+" + e.getValue() + "\\s");
    }
  }

  private Path hbaFile() throws Exception {
    try (Connection c = TestServers.connect(server); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("show hba_file")) {
      rs.next();
      return Path.of(rs.getString(1));
    }
  }

  /**
   * tasks.csv has one line per attempt (the manifest's count), every failure has a SQLSTATE that
   * the summary counts, no call outlived its timeouts, and tasks succeeded after the last failure.
   *
   * @return the failed tasks
   */
  private static List<TaskRecord> assertOneLinePerAttemptAndClassified(Path out) throws Exception {
    List<TaskRecord> tasks = TestServers.tasks(out);
    RunManifest m = TestServers.manifest(out);
    assertThat(m.summary().attempts()).as("one line per attempt").isEqualTo(tasks.size());
    List<TaskRecord> failed = tasks.stream().filter(t -> !t.ok()).toList();
    assertThat(failed).allSatisfy(t -> assertThat(t.sqlstate()).as(t.error()).matches("[0-9A-Z]{5}"));
    assertThat(m.summary().errorsBySqlstate()).isEqualTo(failed.stream()
        .collect(Collectors.groupingBy(TaskRecord::sqlstate, TreeMap::new, Collectors.counting())));
    // A task is at most: a connect and login, then statements each bounded by the query timeout.
    long boundNs = CONNECT_TIMEOUT.toNanos() * 2 + QUERY_TIMEOUT.toNanos() * 2 + TimeUnit.SECONDS.toNanos(2);
    assertThat(tasks).allSatisfy(t -> assertThat(t.endNs() - t.startNs()).as("a bounded call").isLessThan(boundNs));
    long lastFailureEnd = failed.stream().mapToLong(TaskRecord::endNs).max().orElseThrow();
    assertThat(tasks).as("tasks succeed again after the fault").anyMatch(t -> t.ok() && t.startNs() > lastFailureEnd);
    return failed;
  }
}
