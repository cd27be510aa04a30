package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.loadgen.db.EmbeddedServer;
import dev.benchlake.loadgen.db.ServerInfo;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Independent replicates (issue 13.9): every loadgen run on the embedded server gets its own
 * cluster (a copy of initdb's output, see InitdbTemplateTest) and start, and every manifest,
 * embedded or {@code --jdbc-url}, says which server start served it ({@code target.server_start}),
 * so that compare can tell runs that shared one.
 */
@Tag("integration")
class ServerStartTest {
  @TempDir
  Path tmp;

  private LoadgenConfig.Builder pointSelect(Path out) {
    return LoadgenConfig.builder().target(new LoadgenConfig.Embedded(17, Map.of(), tmp)).workload("point-select")
        .tableSize(100).tasks(20L).outDir(out).environment(Map.of());
  }

  private static RunManifest.ServerStart serverStart(Path runDir) throws Exception {
    return RunManifest.read(runDir.resolve(RunDirectory.MANIFEST)).target().serverStart();
  }

  @Test
  void eachEmbeddedRunHasItsOwnServerStart() throws Exception {
    Instant before = Instant.now().minusSeconds(1);
    RunResult first = Loadgen.run(pointSelect(tmp.resolve("a")).build(), ProgressListener.NONE);
    RunResult second = Loadgen.run(pointSelect(tmp.resolve("b")).build(), ProgressListener.NONE);
    assertThat(first.status()).isEqualTo(RunStatus.COMPLETE);
    assertThat(second.status()).isEqualTo(RunStatus.COMPLETE);

    RunManifest.ServerStart a = serverStart(tmp.resolve("a"));
    RunManifest.ServerStart b = serverStart(tmp.resolve("b"));
    assertThat(Instant.parse(a.postmasterStartTime())).isAfter(before);
    assertThat(Instant.parse(b.postmasterStartTime())).isAfter(Instant.parse(a.postmasterStartTime()));
    // A fresh cluster per run: loadgen's temporary cluster directories, each its own.
    assertThat(a.dataDirectory()).startsWith(tmp.toRealPath().toString()).endsWith("/data");
    assertThat(b.dataDirectory()).startsWith(tmp.toRealPath().toString()).isNotEqualTo(a.dataDirectory());
  }

  @Test
  void anyServerByUrlRecordsItsStartAndANullDataDirectoryForAnOrdinaryUser() throws Exception {
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 10, tmp))) {
      Path dataDir = server.dataDirectory().toRealPath();
      try (Connection su = DriverManager.getConnection(server.jdbcUrl(), server.user(), "")) {
        su.createStatement().execute("create role reader login");
        su.createStatement().execute("grant create on schema public to reader");
        ServerInfo asSuperuser = ServerInfo.query(su);
        RunManifest.ServerStart bySuperuser = asSuperuser.serverStart();
        assertThat(asSuperuser.build()).as("pg_config's CONFIGURE, the build's options").contains("--prefix");
        assertThat(Path.of(bySuperuser.dataDirectory()).toRealPath()).isEqualTo(dataDir);
        assertThat(Duration.between(Instant.parse(bySuperuser.postmasterStartTime()), Instant.now()))
            .isBetween(Duration.ZERO, Duration.ofMinutes(5));

        Path out = tmp.resolve("by-url");
        RunResult run = Loadgen.run(pointSelect(out).target(new LoadgenConfig.External(server.jdbcUrl(), "reader"))
            .build(), ProgressListener.NONE);
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETE);
        RunManifest.ServerStart byReader = serverStart(out);
        assertThat(byReader.postmasterStartTime()).isEqualTo(bySuperuser.postmasterStartTime());
        assertThat(byReader.dataDirectory()).as("data_directory is superuser-only").isNull();
        assertThat(RunManifest.read(out.resolve(RunDirectory.MANIFEST)).target().build())
            .as("pg_config is superuser-only: not recorded, and the run complete").isNull();
        // Resource counters (issue 48): a server by URL's processes are not loadgen's to read, so
        // they are not measured, with why, and absent; PostgreSQL's own counters are read.
        dev.benchlake.core.raw.StepResources step = RunManifest.read(out.resolve(RunDirectory.MANIFEST))
            .stepResources().get(0);
        assertThat(step.notMeasured()).containsOnlyKeys("server_cpu_user_ns", "server_cpu_system_ns",
            "server_cs_voluntary", "server_cs_involuntary").allSatisfy((k, why) -> assertThat(why).contains("by URL"));
        assertThat(dev.benchlake.core.raw.ResourceMetric.SERVER_CPU_US_PER_OP.perOperation(step)).isEmpty();
        assertThat(dev.benchlake.core.raw.ResourceMetric.COMMITS_PER_OP.perOperation(step)).isPresent();
        assertThat(dev.benchlake.core.raw.ResourceMetric.WAL_BYTES_PER_OP.perOperation(step)).isPresent();
        assertThat(dev.benchlake.core.raw.ResourceMetric.CLIENT_CPU_US_PER_OP.perOperation(step)).isPresent();
      }
    }
  }
}
