package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.run.ArrivalSchedule;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Closed loop, open loop and burst against a real PostgreSQL: what each records. */
@org.junit.jupiter.api.Tag("integration")
class ModesTest {
  @TempDir
  Path tmp;

  private final EmbeddedServer server = TestServers.shared();

  private LoadgenConfig.Builder pointSelect(Path out) {
    return TestServers.sharedConfig(out).workload("point-select").tableSize(1000);
  }

  @Test
  void closedLoopWarmsUpThenRunsForItsDuration() throws Exception {
    Path out = tmp.resolve("closed");
    RunResult result = Loadgen.run(pointSelect(out).mode(LoadgenConfig.Mode.closed(2))
        .warmup(Duration.ofMillis(300)).duration(Duration.ofMillis(700)).build(), ProgressListener.NONE, server);

    List<TaskRecord> tasks = TestServers.tasks(out);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    assertThat(tasks).anyMatch(TaskRecord::warmup).anyMatch(t -> !t.warmup());
    long firstIntended = tasks.stream().mapToLong(TaskRecord::intendedStartNs).min().orElseThrow();
    long warmupEnd = tasks.stream().filter(t -> !t.warmup()).mapToLong(TaskRecord::intendedStartNs).min().orElseThrow();
    assertThat(tasks.stream().filter(TaskRecord::warmup)).allMatch(t -> t.intendedStartNs() < warmupEnd);
    long lastMeasuredStart = tasks.stream().mapToLong(TaskRecord::intendedStartNs).max().orElseThrow();
    assertThat(lastMeasuredStart - firstIntended).isLessThan(Duration.ofMillis(1000).toNanos());
    assertThat(tasks).allMatch(t -> t.waitNs() == 0);
    // Per client, seq counts up from 0 without gaps and tasks follow each other.
    for (int client = 0; client < 2; client++) {
      int c = client;
      List<TaskRecord> own = tasks.stream().filter(t -> t.clientId() == c)
          .sorted(Comparator.comparingLong(TaskRecord::seq)).toList();
      for (int i = 0; i < own.size(); i++) {
        assertThat(own.get(i).seq()).isEqualTo(i);
        if (i > 0) {
          assertThat(own.get(i).intendedStartNs()).isGreaterThanOrEqualTo(own.get(i - 1).endNs());
        }
      }
    }
    StepResult step = result.steps().get(0);
    assertThat(step.measuredOk()).isEqualTo(tasks.stream().filter(t -> !t.warmup() && t.ok()).count());
    assertThat(step.okPerSecond()).isPositive();
    assertThat(step.p50Ns()).isPositive().isLessThanOrEqualTo(step.p99Ns());
  }

  @Test
  void openLoopFollowsAFixedScheduleAndMeasuresFromIt() throws Exception {
    Path out = tmp.resolve("fixed");
    Loadgen.run(pointSelect(out).mode(LoadgenConfig.Mode.open(2, 200, ArrivalSchedule.Kind.FIXED))
        .tasks(100L).build(), ProgressListener.NONE, server);

    List<TaskRecord> tasks = TestServers.tasks(out).stream()
        .sorted(Comparator.comparingLong(TaskRecord::intendedStartNs)).toList();
    assertThat(tasks).hasSize(100);
    for (int i = 1; i < tasks.size(); i++) {
      assertThat(tasks.get(i).intendedStartNs() - tasks.get(i - 1).intendedStartNs())
          .as("5 ms apart at 200/s").isBetween(4_999_999L, 5_000_001L);
    }
    assertThat(tasks).allMatch(t -> t.startNs() >= t.intendedStartNs());
    RunManifest m = TestServers.manifest(out);
    assertThat(m.mode().kind()).isEqualTo("open");
    assertThat(m.mode().rate()).isEqualTo(200.0);
    assertThat(m.mode().schedule()).isEqualTo("fixed");
  }

  @Test
  void openLoopLatencyIncludesTheBacklogWhenClientsCannotKeepUp() throws Exception {
    TestServers.sql(server, "drop table if exists slow", "create table slow(x int)");
    Path script = tmp.resolve("slow.sql");
    java.nio.file.Files.writeString(script, "select pg_sleep(0.02)", java.nio.charset.StandardCharsets.UTF_8);
    Path out = tmp.resolve("backlog");
    // One client, 20 ms per task, 200 arrivals per second: the schedule runs away from the client.
    Loadgen.run(TestServers.sharedConfig(out).workload(null).scripts(List.of(script.toString()))
        .mode(LoadgenConfig.Mode.open(1, 200, ArrivalSchedule.Kind.POISSON)).tasks(40L).build(),
        ProgressListener.NONE, server);

    List<TaskRecord> tasks = TestServers.tasks(out).stream()
        .sorted(Comparator.comparingLong(TaskRecord::intendedStartNs)).toList();
    TaskRecord last = tasks.get(tasks.size() - 1);
    assertThat(last.startNs() - last.intendedStartNs()).as("the last task started late")
        .isGreaterThan(Duration.ofMillis(300).toNanos());
    assertThat(last.latencyNs()).isGreaterThan(last.serviceNs() + Duration.ofMillis(300).toNanos());
  }

  @Test
  void poissonArrivalsAreReproducibleFromTheSeed() throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    for (Path out : List.of(a, b)) {
      Loadgen.run(pointSelect(out).mode(LoadgenConfig.Mode.open(1, 500, ArrivalSchedule.Kind.POISSON))
          .tasks(30L).randomSeed(7L).build(), ProgressListener.NONE, server);
    }
    assertThat(gaps(a)).isEqualTo(gaps(b));
  }

  private static List<Long> gaps(Path run) throws Exception {
    List<TaskRecord> tasks = TestServers.tasks(run).stream()
        .sorted(Comparator.comparingLong(TaskRecord::intendedStartNs)).toList();
    long origin = tasks.get(0).intendedStartNs();
    return tasks.stream().map(t -> t.intendedStartNs() - origin).collect(Collectors.toList());
  }

  @Test
  void burstRecordsPoolWaitsAndPoolTimeoutsAsFailedTasks() throws Exception {
    Path out = tmp.resolve("burst");
    RunResult result = Loadgen.run(TestServers.sharedConfig(out).workload("select-update").scale(0.001)
        .thinkTime(Duration.ofMillis(40), Duration.ofMillis(40))
        .mode(LoadgenConfig.Mode.burst(60, 2, Duration.ofMillis(400))).build(), ProgressListener.NONE, server);

    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    List<TaskRecord> tasks = TestServers.tasks(out);
    assertThat(tasks).hasSize(60);
    long submitted = tasks.get(0).intendedStartNs();
    assertThat(tasks).allMatch(t -> t.intendedStartNs() == submitted);
    assertThat(tasks).allMatch(t -> t.waitNs() == t.startNs() - t.intendedStartNs());
    List<TaskRecord> failed = tasks.stream().filter(t -> !t.ok()).toList();
    // 2 connections x 400 ms / ~45 ms per task: about 18 tasks get a connection, the rest time out.
    assertThat(failed).hasSizeBetween(20, 58)
        .allMatch(t -> t.error().startsWith("pool timeout: no connection within 400 ms"))
        .allMatch(t -> t.startNs() == t.endNs() && t.waitNs() >= Duration.ofMillis(390).toNanos());
    assertThat(tasks.stream().map(TaskRecord::clientId).collect(Collectors.toSet())).hasSize(60);
    RunManifest m = TestServers.manifest(out);
    assertThat(m.mode().kind()).isEqualTo("burst");
    assertThat(m.mode().clients()).isEqualTo(2);
    assertThat(m.mode().poolTimeoutS()).isEqualTo(0.4);
    assertThat(m.workload().parameters()).containsEntry("burst_size", 60).containsEntry("burst_dispatch", "queue");
    assertThat(m.summary().errorsBySqlstate()).containsEntry("none", (long) failed.size());
  }

  @Test
  void aBurstsTasksAreServedFirstComeFirstServedAtMostPoolAtATime() throws Exception {
    Path out = tmp.resolve("queue");
    Loadgen.run(TestServers.sharedConfig(out).workload("select-update").scale(0.001)
        .thinkTime(Duration.ofMillis(5), Duration.ofMillis(5))
        .mode(LoadgenConfig.Mode.burst(40, 3, Duration.ofSeconds(15))).build(), ProgressListener.NONE, server);

    List<TaskRecord> tasks = TestServers.tasks(out).stream().sorted(Comparator.comparingLong(TaskRecord::startNs))
        .toList();
    assertThat(tasks).hasSize(40).allMatch(TaskRecord::ok);
    // Never more tasks in service than connections: a task starts only when one has ended.
    for (TaskRecord t : tasks) {
      long inService = tasks.stream().filter(o -> o.startNs() <= t.startNs() && o.endNs() > t.startNs()).count();
      assertThat(inService).as("tasks in service when slot %d started", t.clientId()).isLessThanOrEqualTo(3);
    }
    // First come, first served: slot k is taken only by a worker whose last task has ended, while
    // the pool's 2 other workers hold at most one slot each, so k - 2 of the slots before it ended
    // before it started. With a thread per task (the pool picking among them) a late slot often
    // started among the first.
    Map<Integer, TaskRecord> bySlot = tasks.stream().collect(Collectors.toMap(TaskRecord::clientId, t -> t));
    for (int slot = 2; slot < 40; slot++) {
      int s = slot;
      long started = bySlot.get(slot).startNs();
      long endedBefore = bySlot.entrySet().stream().filter(e -> e.getKey() < s)
          .filter(e -> e.getValue().endNs() <= started).count();
      assertThat(endedBefore).as("slots before %d that had ended when it started", slot).isGreaterThanOrEqualTo(slot - 2);
    }
  }

  @Test
  void theFirstMeasuredBurstStartsAtTheWarmUpsEndNotWhenTheLastWarmUpBurstDrains() throws Exception {
    Path out = tmp.resolve("warm-bursts");
    // A burst of 4 on 4 connections drains in a little over 300 ms. With a warm-up of 450 ms a
    // second warm-up burst would drain past it, so the driver waits and the first measured burst
    // goes at 450 ms (before: a second warm-up burst at ~300 ms, the first measured at ~600 ms).
    // Gated (a barrier that says "now"), so that filling the pool is not inside the warm-up.
    Loadgen.run(TestServers.sharedConfig(out).workload("select-update").scale(0.001)
        .thinkTime(Duration.ofMillis(300), Duration.ofMillis(300))
        .mode(LoadgenConfig.Mode.burst(4, 4, Duration.ofSeconds(15))).warmup(Duration.ofMillis(450))
        .tasks(4L).stepBarrier((index, step) -> StepBarrier.NOW).build(), ProgressListener.NONE, server);

    List<TaskRecord> tasks = TestServers.tasks(out);
    assertThat(tasks).hasSize(8).allMatch(TaskRecord::ok);
    Map<Long, List<TaskRecord>> bursts = tasks.stream().collect(Collectors.groupingBy(TaskRecord::seq));
    assertThat(bursts.get(0L)).hasSize(4).allMatch(TaskRecord::warmup);
    assertThat(bursts.get(1L)).hasSize(4).noneMatch(TaskRecord::warmup);
    RunManifest m = TestServers.manifest(out);
    long warmupEnd = m.stepWindows().get(0).measuredFromEpochNs() - m.originEpochNs();
    assertThat(bursts.get(0L)).allMatch(t -> t.endNs() < warmupEnd);
    assertThat(bursts.get(1L).get(0).intendedStartNs() - warmupEnd)
        .as("the first measured burst's start, ns after the warm-up's end").isBetween(0L, 20_000_000L);
  }

  @Test
  void burstsRepeatUntilTheTasksAreDone() throws Exception {
    Path out = tmp.resolve("bursts");
    Loadgen.run(pointSelect(out).mode(LoadgenConfig.Mode.burst(20, 4, Duration.ofSeconds(15))).tasks(50L).build(),
        ProgressListener.NONE, server);

    List<TaskRecord> tasks = TestServers.tasks(out);
    assertThat(tasks).hasSize(50).allMatch(TaskRecord::ok);
    assertThat(tasks.stream().collect(Collectors.groupingBy(TaskRecord::seq, Collectors.counting())))
        .containsEntry(0L, 20L).containsEntry(1L, 20L).containsEntry(2L, 10L);
  }
}
