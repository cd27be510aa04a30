package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.StatementPlan;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.workload.MytoolsStep;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mytools study's whole step set on one embedded server, each step for 250 ms: what is proven
 * (every one of its 48 steps runs, in order, without an error, and the post-write vacuums happen)
 * does not depend on how long a step runs, and 48 one-second steps were 48 s of CI.
 */
@Tag("integration")
class MytoolsStepsTest {
  @TempDir
  Path tmp;

  @Test
  void theWholeStudyRunsInItsOrderWithoutAnError() throws Exception {
    Path out = tmp.resolve("mytools");
    // One client: the study's writes cannot deadlock or collide, so "no error" is a fair demand.
    RunResult result = Loadgen.run(TestServers.sharedConfig(out).workload("sysbench").steps(List.of("mytools"))
        .tables(2).tableSize(10_000).mode(LoadgenConfig.Mode.closed(1)).readDuration(Duration.ofMillis(250))
        .writeDuration(Duration.ofMillis(250)).warmup(Duration.ZERO).build(), ProgressListener.NONE,
        TestServers.shared());

    List<String> expected = MytoolsStep.STUDY.stream().map(MytoolsStep::name).toList();
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    assertThat(result.steps()).extracting(StepResult::step).isEqualTo(expected);
    assertThat(result.steps()).allSatisfy(s -> {
      assertThat(s.ok()).as(s.step()).isPositive();
      assertThat(s.errors()).as(s.step() + " " + s.exampleErrors()).isZero();
    });
    List<TaskRecord> tasks = TestServers.tasks(out);
    assertThat(tasks).allMatch(TaskRecord::ok);
    // tasks.csv holds the steps one after another, in the study's order.
    assertThat(tasks.stream().map(TaskRecord::step).distinct().toList()).isEqualTo(expected);
    Map<String, Long> perStep = tasks.stream().collect(Collectors.groupingBy(TaskRecord::step, Collectors.counting()));
    assertThat(perStep.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    RunManifest m = TestServers.manifest(out);
    assertThat(m.workload().steps()).isEqualTo(expected);
    assertThat(m.workload().parameters()).containsEntry("read_duration_s", 0.25).containsEntry("write_duration_s", 0.25)
        .containsEntry("vacuum_checkpoint_after", "point-query.warm_range=100,read-write_range=100");
    // Every step's statements explained (the version study's first question is which plan each side ran).
    assertThat(m.stepPlans().stream().map(StatementPlan::step).distinct().toList()).isEqualTo(expected);
    assertThat(m.stepPlans()).allSatisfy(p -> assertThat(p.error()).as(p.step() + ": " + p.statement()).isNull());
    // The load's VACUUM ANALYZE, then the study's two post-write vacuums.
    try (Connection c = TestServers.connect(TestServers.shared()); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("select relname, vacuum_count from pg_stat_user_tables "
            + "where relname like 'sbtest%' order by relname")) {
      for (String table : List.of("sbtest1", "sbtest2")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo(table);
        assertThat(rs.getLong(2)).as(table).isEqualTo(3);
      }
    }
  }
}
