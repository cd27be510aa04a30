package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Submits the shaded jar to a real Spark standalone cluster with spark-submit and checks what the
 * jobs did. Runs in {@code mvn verify} (failsafe), after the jar is built.
 */
class StandaloneClusterIT {
  private static StandaloneCluster cluster;
  private static Path workDir;

  @BeforeAll
  static void startCluster() throws Exception {
    Path appTarget = Path.of(System.getProperty("benchlake.app.dir", "target")).toAbsolutePath();
    workDir = Files.createDirectories(appTarget.resolve("cluster-it"));
    cluster = new StandaloneCluster(appTarget, Files.createTempDirectory(workDir, "run-"));
    cluster.start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aJobOnAMissingWarehouseFailsCleanlyWithExitTwo() throws Exception {
    Path missing = workDir.resolve("no-such-warehouse");
    StandaloneCluster.Result result = cluster.submit("runs", "--warehouse", missing.toString());
    assertThat(result.exitCode()).as(result.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(result.stderr()).contains("benchlake runs: no warehouse at " + missing);
  }
}
