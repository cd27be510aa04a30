package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Submits the shaded jar to a real Spark standalone cluster with spark-submit and checks what the
 * jobs did. Runs in {@code mvn verify} (failsafe), after the jar is built.
 */
@org.junit.jupiter.api.Tag("integration")
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

  /**
   * The whole chain with the Spark parts on the cluster: two real loadgen runs against embedded
   * PostgreSQL (on the client, as users run it), then ingest and runs through spark-submit.
   */
  @Test
  void ingestsRealLoadgenRunsOnTheClusterAndListsThem() throws Exception {
    Path runs = Files.createTempDirectory(workDir, "loadgen-");
    for (String name : new String[] {"run-a", "run-b"}) {
      int code = Benchlake.commandLine().execute("loadgen", "--quiet",
          "--workload", "point-select", "--tables", "1", "--table-size", "1000",
          "--clients", "2", "--tasks", "3000", "--label", "os=linux", "--out", runs.resolve(name).toString());
      assertThat(code).isZero();
    }
    Path warehouse = workDir.resolve("warehouse-" + System.nanoTime());
    int appsBefore = cluster.completedApplications();

    StandaloneCluster.Result ingest = cluster.submit("ingest", "--warehouse", warehouse.toString(),
        "--label", "host=cluster-it", runs.resolve("run-a").toString(), runs.resolve("run-b").toString());
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    assertThat(ingest.stderr()).contains("accepted 3001, rejected 0");

    StandaloneCluster.Result listed = cluster.submit("runs", "--warehouse", warehouse.toString(), "--json");
    assertThat(listed.exitCode()).as(listed.stderr()).isZero();
    List<JsonNode> rows = new ArrayList<>();
    for (String line : listed.stdout().strip().split("\n")) {
      rows.add(Json.mapper().readTree(line));
    }
    assertThat(rows).hasSize(2).allSatisfy(run -> {
      assertThat(run.get("source_format").asText()).isEqualTo("loadgen");
      assertThat(run.get("status").asText()).isEqualTo("complete");
      assertThat(run.get("tasks_accepted").asLong()).isEqualTo(3000);
      assertThat(run.get("lines_rejected").asLong()).isZero();
      assertThat(run.get("labels").get("os").asText()).isEqualTo("linux");
      assertThat(run.get("labels").get("host").asText()).isEqualTo("cluster-it");
    });
    // Both jobs ran as applications of the standalone master, not in local mode.
    assertThat(cluster.awaitCompletedApplications(appsBefore + 2)).isEqualTo(appsBefore + 2);
  }

  @Test
  void aJobOnAMissingWarehouseFailsCleanlyWithExitTwo() throws Exception {
    Path missing = workDir.resolve("no-such-warehouse");
    StandaloneCluster.Result result = cluster.submit("runs", "--warehouse", missing.toString());
    assertThat(result.exitCode()).as(result.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(result.stderr()).contains("benchlake runs: no warehouse at " + missing);
  }
}
