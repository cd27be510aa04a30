package dev.benchlake.core.raw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunManifestTest {

  static RunManifest sample() {
    TreeMap<String, Object> parameters = new TreeMap<>();
    parameters.put("scale", 10);
    parameters.put("random_seed", 42L);
    return new RunManifest(
        RunManifest.FORMAT_VERSION,
        "2b0c8a0e-5d43-4b8f-9d55-3f1c2d9b7a10",
        new RunManifest.Tool("benchlake-loadgen", "0.1.0 (git 0123456789ab)"),
        "2026-11-29T10:00:00Z",
        "2026-11-29T10:01:00Z",
        1_795_946_400_000_000_000L,
        RunStatus.COMPLETE,
        null,
        new RunManifest.Workload("select-update", List.of("select-update"), parameters),
        new RunManifest.Mode("burst", 100, 5000L, null, 0.0, null, null, 15.0),
        new RunManifest.Target("jdbc:postgresql://localhost:5432/postgres", true,
            "PostgreSQL 17.5 on x86_64-pc-linux-gnu", 17, new TreeMap<>(Map.of("max_connections", "300"))),
        new RunManifest.Client("bench-1", "Linux", "6.1.0", "amd64", 2, 25_769_803_776L, "17.0.15 (Debian)"),
        new TreeMap<>(Map.of("os", "linux")),
        new RunManifest.Summary(5000, 4992, 8, Map.of("08001", 8L)));
  }

  /** A finished run of two steps with the table health around each, and vacuum-analyze between them. */
  static RunManifest sampleWithHealth() {
    TableHealth loaded = new TableHealth("2026-11-29T10:00:01.250Z", 2, 20_000, 0, 0, 0, null, null, 12L, 345L);
    TableHealth written = new TableHealth("2026-11-29T10:00:31.500Z", 2, 20_000, 11_800, 1, 2,
        "2026-11-29T10:00:20.125Z", "2026-11-29T10:00:21Z", 13L, 1_234L);
    TableHealth vacuumed = new TableHealth("2026-11-29T10:00:32Z", 2, 20_000, 0, 1, 2, "2026-11-29T10:00:20.125Z",
        "2026-11-29T10:00:21Z", 13L, 1_234L);
    TableHealth read = new TableHealth("2026-11-29T10:01:02Z", 2, 20_000, 0, 1, 2, "2026-11-29T10:00:20.125Z",
        "2026-11-29T10:00:21Z", 14L, 1_300L);
    RunManifest m = sample();
    return new RunManifest(m.formatVersion(), m.runId(), m.tool(), m.startedAt(), m.finishedAt(), m.originEpochNs(),
        m.status(), m.error(), new RunManifest.Workload("sysbench", List.of("update-index", "point-select"),
            m.workload().parameters()), m.mode(), m.target(), m.client(), m.labels(), m.summary(), "vacuum-analyze",
        List.of(new StepHealth("update-index", List.of("update-index"), loaded, written, 1, 2, "vacuum-analyze"),
            new StepHealth("point-select", List.of("point-select"), vacuumed, read, 0, 0, null)));
  }

  @Test
  void tableHealthMatchesItsGoldenFileAndRoundTrips() throws IOException {
    dev.benchlake.core.testing.Golden.checkOnly(getClass(), "manifest-health-golden.json",
        sampleWithHealth().toJson() + "\n");
    RunManifest back = RunManifest.fromJson(sampleWithHealth().toJson());
    assertThat(back.stepHealth()).isEqualTo(sampleWithHealth().stepHealth());
    assertThat(back.betweenSteps()).isEqualTo("vacuum-analyze");
    assertThat(back.stepHealth().get(0).healthAfter().deadFraction()).isEqualTo(11_800 / 31_800.0);
    assertThat(RunManifest.fromJson(sample().toJson()).stepHealth()).as("an older manifest: not recorded").isNull();
  }

  /** One side of a duet: its CPU set, its steps' shared windows, and scan's rows per second. */
  static RunManifest sampleOfADuetSide() {
    RunManifest m = sampleWithHealth();
    long start = 1_795_946_402_000_000_000L;
    TreeMap<String, String> labels = new TreeMap<>(Map.of("design", "duet", "round", "3", "side", "a", "cpus", "0"));
    return new RunManifest(m.formatVersion(), m.runId(), m.tool(), m.startedAt(), m.finishedAt(), m.originEpochNs(),
        m.status(), m.error(), new RunManifest.Workload("sysbench", List.of("point-select", "scan_range=100"),
            m.workload().parameters()), m.mode(), m.target(), m.client(), labels, m.summary(), null, null,
        new CpuAffinity("0", "0", "0"),
        List.of(new StepWindow("point-select", start, start + 500_000_000L, start + 2_500_000_000L, true),
            new StepWindow("scan_range=100", start + 4_000_000_000L, start + 4_000_000_000L, null, true)),
        List.of(new StepMetric("scan_range=100", "qps", 1.25e7, "1/s",
            "rows scanned per second: each client scanned every table once")));
  }

  @Test
  void aDuetSidesCpuSetWindowsAndStepFiguresMatchTheirGoldenFileAndRoundTrip() throws IOException {
    dev.benchlake.core.testing.Golden.checkOnly(getClass(), "manifest-duet-golden.json",
        sampleOfADuetSide().toJson() + "\n");
    RunManifest back = RunManifest.fromJson(sampleOfADuetSide().toJson());
    assertThat(back.cpuAffinity()).isEqualTo(new CpuAffinity("0", "0", "0"));
    assertThat(back.stepWindows()).isEqualTo(sampleOfADuetSide().stepWindows());
    assertThat(back.stepMetrics()).isEqualTo(sampleOfADuetSide().stepMetrics());
    // finish() and withStepHealth() keep them.
    RunManifest finished = back.finish(RunStatus.INTERRUPTED, "2026-11-29T10:02:00Z", "stopped", back.summary())
        .withStepHealth(List.of());
    assertThat(finished.cpuAffinity()).isEqualTo(back.cpuAffinity());
    assertThat(finished.stepWindows()).isEqualTo(back.stepWindows());
    assertThat(finished.stepMetrics()).isEqualTo(back.stepMetrics());
  }

  /**
   * A step's resource counters (issue 48): a server by URL's process counters are not measured,
   * with the reason, and stay absent after the round trip, not zero; finish() keeps them.
   */
  static RunManifest sampleWithResources() {
    TreeMap<String, String> notMeasured = new TreeMap<>();
    notMeasured.put(ResourceMetric.Counter.SERVER_CPU_USER_NS, "a server by URL: its processes are not known to loadgen");
    notMeasured.put(ResourceMetric.Counter.IO_READ_BYTES, "pg_stat_io needs PostgreSQL 16; this is 14");
    return sampleOfADuetSide().withStepResources(List.of(new StepResources("point-select", List.of("point-select"),
        2_000, List.of(new ResourceCounter(ResourceMetric.Counter.CLIENT_CPU_USER_NS, 1_230_000_000L, 2_460_000_000L,
            "ns"), new ResourceCounter(ResourceMetric.Counter.WAL_BYTES, 50_000_000L, 50_200_000L, "bytes"),
            new ResourceCounter(ResourceMetric.Counter.XACT_COMMIT, 100L, 2_103L, "count")), notMeasured)));
  }

  @Test
  void stepResourcesMatchTheirGoldenFileAndRoundTripWithWhatWasNotMeasured() throws IOException {
    dev.benchlake.core.testing.Golden.checkOnly(getClass(), "manifest-resources-golden.json",
        sampleWithResources().toJson() + "\n");
    RunManifest back = RunManifest.fromJson(sampleWithResources().toJson());
    assertThat(back.stepResources()).isEqualTo(sampleWithResources().stepResources());
    StepResources step = back.stepResources().get(0);
    assertThat(step.counter(ResourceMetric.Counter.SERVER_CPU_USER_NS)).as("not measured: absent").isNull();
    assertThat(step.notMeasured()).containsKey(ResourceMetric.Counter.SERVER_CPU_USER_NS);
    assertThat(ResourceMetric.SERVER_CPU_US_PER_OP.perOperation(step)).isEmpty();
    assertThat(ResourceMetric.WAL_BYTES_PER_OP.perOperation(step)).hasValue(100.0);
    assertThat(ResourceMetric.COMMITS_PER_OP.perOperation(step)).hasValue(2_003 / 2_000.0);
    assertThat(back.finish(RunStatus.COMPLETE, "2026-11-29T10:02:00Z", null, back.summary()).stepResources())
        .isEqualTo(back.stepResources());
  }

  @Test
  void olderManifestsReadWithoutCpuSetsWindowsOrStepFigures() throws IOException {
    for (String golden : List.of("manifest-golden.json", "manifest-health-golden.json")) {
      try (InputStream in = getClass().getResourceAsStream(golden)) {
        RunManifest old = RunManifest.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        assertThat(old.cpuAffinity()).as(golden).isNull();
        assertThat(old.stepWindows()).as(golden).isNull();
        assertThat(old.stepMetrics()).as(golden).isNull();
        assertThat(old.stepResources()).as(golden).isNull();
      }
    }
  }

  /** target.build (issue 46): optional, so the manifests written before it read as "not recorded". */
  @Test
  void theServerBuildIsOptionalAndRoundTrips() throws IOException {
    for (String golden : List.of("manifest-golden.json", "manifest-health-golden.json", "manifest-duet-golden.json")) {
      try (InputStream in = getClass().getResourceAsStream(golden)) {
        assertThat(RunManifest.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8)).target().build())
            .as(golden).isNull();
      }
    }
    RunManifest.Target t = sample().target();
    String configure = "'--prefix=/usr/local/pg-build' '--with-openssl'";
    RunManifest m = sample();
    RunManifest built = new RunManifest(m.formatVersion(), m.runId(), m.tool(), m.startedAt(), m.finishedAt(),
        m.originEpochNs(), m.status(), m.error(), m.workload(), m.mode(),
        new RunManifest.Target(t.jdbcUrl(), t.embedded(), t.serverVersion(), t.major(), t.settings(), null, configure),
        m.client(), m.labels(), m.summary());
    assertThat(built.toJson()).contains("\"build\" : \"'--prefix=/usr/local/pg-build' '--with-openssl'\"");
    assertThat(RunManifest.fromJson(built.toJson()).target().build()).isEqualTo(configure);
    assertThat(sample().toJson()).as("not recorded: left out, as before").doesNotContain("\"build\"");
  }

  @Test
  void matchesTheGoldenFile() throws IOException {
    try (InputStream in = getClass().getResourceAsStream("manifest-golden.json")) {
      String golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(sample().toJson() + "\n").isEqualTo(golden);
    }
  }

  @Test
  void roundTripsThroughAFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve(RunDirectory.MANIFEST);
    sample().writeAtomically(file);
    // Compared as JSON: Map<String, Object> parameters come back as Jackson's number types.
    assertThat(RunManifest.read(file).toJson()).isEqualTo(sample().toJson());
    assertThat(Files.list(dir)).containsExactly(file);
  }

  @Test
  void toleratesUnknownFieldsButNotANewerFormat() throws IOException {
    String json = sample().toJson().replaceFirst("\\{", "{\"from_the_future\": 1,");
    assertThat(RunManifest.fromJson(json).runId()).isEqualTo(sample().runId());
    String newer = sample().toJson().replace("\"format_version\" : 1", "\"format_version\" : 99");
    assertThatThrownBy(() -> RunManifest.fromJson(newer)).hasMessageContaining("newer");
  }
}
