package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs that start their own embedded server, on the oldest and the newest supported majors: the
 * manifest records the real version and every non-default setting, with durability back on.
 */
@org.junit.jupiter.api.Tag("integration")
class EmbeddedVersionsTest {
  @TempDir
  Path tmp;

  private RunManifest burstOn(int major, Map<String, String> settings) throws Exception {
    Path out = tmp.resolve("pg" + major);
    RunResult result = Loadgen.run(LoadgenConfig.builder().target(new LoadgenConfig.Embedded(major, settings, tmp))
        .workload("select-update").scale(0.01).mode(LoadgenConfig.Mode.burst(200, 20, Duration.ofSeconds(15)))
        .outDir(out).environment(Map.of()).build(), ProgressListener.NONE);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    assertThat(TestServers.tasks(out)).hasSize(200);
    return TestServers.manifest(out);
  }

  @Test
  void postgres11WithAUserSetting() throws Exception {
    // work_mem reloads; shared_buffers needs a restart; fsync is on the command line.
    RunManifest m = burstOn(11, Map.of("work_mem", "8MB", "shared_buffers", "64MB", "fsync", "off"));
    assertThat(m.target().major()).isEqualTo(11);
    assertThat(m.target().serverVersion()).startsWith("PostgreSQL 11.");
    assertThat(m.target().embedded()).isTrue();
    assertThat(m.target().settings()).containsEntry("work_mem", "8MB").containsEntry("shared_buffers", "64MB")
        .containsEntry("fsync", "off")
        .containsEntry("synchronous_commit", "on").containsEntry("max_connections", "100");
    assertThat(tmp).isDirectoryNotContaining(p -> p.getFileName().toString().startsWith("benchlake-pg"));
  }

  @Test
  void postgres17SizesMaxConnectionsToTheLoad() throws Exception {
    Path out = tmp.resolve("big");
    Loadgen.run(LoadgenConfig.builder().target(new LoadgenConfig.Embedded(17, Map.of(), tmp))
        .workload("point-select").tableSize(100).mode(LoadgenConfig.Mode.closed(120)).tasks(240L)
        .outDir(out).environment(Map.of()).build(), ProgressListener.NONE);
    RunManifest m = TestServers.manifest(out);
    assertThat(m.target().serverVersion()).startsWith("PostgreSQL 17.");
    assertThat(m.target().settings()).containsEntry("max_connections", "130").containsEntry("fsync", "on");
  }
}
