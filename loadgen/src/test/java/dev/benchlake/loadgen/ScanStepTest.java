package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.StepMetric;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mytools' scan as the study counts it (issue 26.4): one pass in which every client scans every
 * table once, whatever the read duration, and the step's figure is the rows scanned per second.
 */
@Tag("integration")
class ScanStepTest {
  private static final int TABLES = 3;
  private static final int ROWS = 800;
  private static final int CLIENTS = 2;

  @TempDir
  Path tmp;

  private final EmbeddedServer server = TestServers.shared();

  private RunResult run(String name, List<String> steps) {
    RunResult result = Loadgen.run(TestServers.sharedConfig(tmp.resolve(name)).workload("sysbench").steps(steps)
        .tables(TABLES).tableSize(ROWS).mode(LoadgenConfig.Mode.closed(CLIENTS))
        .readDuration(Duration.ofSeconds(20)).writeDuration(Duration.ofMillis(200)).warmup(Duration.ofSeconds(1))
        .build(), ProgressListener.NONE, server);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    return result;
  }

  /** Sequential scans per sbtest table so far (the statistics of the run's connections, flushed as they left). */
  private Map<String, Long> seqScans() throws Exception {
    try (Connection c = TestServers.connect(server); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("select relname, seq_scan from pg_stat_user_tables where relname like 'sbtest%'")) {
      Map<String, Long> scans = new TreeMap<>();
      while (rs.next()) {
        scans.put(rs.getString(1), rs.getLong(2));
      }
      return scans;
    }
  }

  @Test
  void everyClientScansEveryTableOnceAndTheFigureIsRowsPerSecond() throws Exception {
    // The same load and a step that scans nothing (updates by id), to know what the load itself counts as scans.
    run("without", List.of("update-index_range=100"));
    Map<String, Long> loadOnly = seqScans();
    RunResult result = run("with", List.of("update-index_range=100", "scan_range=100"));
    Map<String, Long> withScan = seqScans();
    assertThat(withScan.keySet()).containsExactly("sbtest1", "sbtest2", "sbtest3");
    for (String table : withScan.keySet()) {
      assertThat(withScan.get(table) - loadOnly.get(table)).as("scans of " + table).isEqualTo(CLIENTS);
    }

    // One task per table and client, none of them warm-up; the 20 s read duration and the warm-up do not apply.
    List<TaskRecord> scans = TestServers.tasks(tmp.resolve("with")).stream()
        .filter(t -> t.step().equals("scan_range=100")).toList();
    assertThat(scans).hasSize(CLIENTS * TABLES).allMatch(TaskRecord::ok).noneMatch(TaskRecord::warmup);
    assertThat(scans.stream().collect(Collectors.groupingBy(TaskRecord::clientId, Collectors.counting())))
        .containsExactlyInAnyOrderEntriesOf(Map.of(0, (long) TABLES, 1, (long) TABLES));
    StepResult step = result.steps().get(1);
    assertThat(step.measuredS()).isLessThan(20);

    // The step's figure: rows scanned per second over the pass, what trend reads as its qps.
    long first = scans.stream().mapToLong(TaskRecord::intendedStartNs).min().orElseThrow();
    long last = scans.stream().mapToLong(TaskRecord::endNs).max().orElseThrow();
    RunManifest manifest = TestServers.manifest(tmp.resolve("with"));
    assertThat(manifest.stepMetrics()).hasSize(1);
    StepMetric rows = manifest.stepMetrics().get(0);
    assertThat(rows.step()).isEqualTo("scan_range=100");
    assertThat(rows.metric()).isEqualTo("qps");
    assertThat(rows.unit()).isEqualTo("1/s");
    assertThat(rows.value()).isCloseTo(CLIENTS * TABLES * (double) ROWS / ((last - first) / 1e9), within(1e-6 * rows.value()));
    assertThat(TestServers.manifest(tmp.resolve("without")).stepMetrics()).as("only scan counts rows").isNull();
  }
}
