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
   * PostgreSQL (on the client, as users run it), then ingest and runs through one spark-submit of
   * a batch: one application on the master, its driver and executor started once for both. Its
   * last line is a job on a missing warehouse, which must fail cleanly: exit 2 through
   * spark-submit, one line saying why. (That was a spark-submit of its own: a driver start, 20-44
   * s of a CI run, for an exit code that the batch's last line passes on the same way.)
   */
  @Test
  void ingestsRealLoadgenRunsOnTheClusterListsThemAndAJobOnAMissingWarehouseExitsTwo() throws Exception {
    Path runs = Files.createTempDirectory(workDir, "loadgen-");
    for (String name : new String[] {"run-a", "run-b"}) {
      int code = Benchlake.commandLine().execute("loadgen", "--quiet",
          "--workload", "point-select", "--tables", "1", "--table-size", "1000",
          "--clients", "2", "--tasks", "3000", "--label", "os=linux", "--out", runs.resolve(name).toString());
      assertThat(code).isZero();
    }
    Path warehouse = workDir.resolve("warehouse-" + System.nanoTime());
    Path missing = workDir.resolve("no-such-warehouse");
    Path commands = Files.writeString(runs.resolve("commands.txt"),
        "ingest --warehouse " + warehouse + " --label host=cluster-it " + runs.resolve("run-a") + " " + runs.resolve("run-b")
            + "\nruns --warehouse " + warehouse + " --json\nruns --warehouse " + missing + "\n");
    int appsBefore = cluster.completedApplications();

    StandaloneCluster.Result batch = cluster.submit("batch", commands.toString());
    assertThat(batch.exitCode()).as(batch.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(batch.stderr()).contains("batch: line 1: ingest", "accepted 3001, rejected 0", "batch: line 2: runs",
        "batch: line 3: runs", "benchlake runs: no warehouse at " + missing, "batch: line 3: exit code 2");
    List<JsonNode> rows = new ArrayList<>();
    for (String line : batch.stdout().strip().split("\n")) {
      if (line.startsWith("{")) { // runs --json; ingest prints the run ids before it
        rows.add(Json.mapper().readTree(line));
      }
    }
    assertThat(rows).hasSize(2).allSatisfy(run -> {
      assertThat(run.get("source_format").asText()).isEqualTo("loadgen");
      assertThat(run.get("status").asText()).isEqualTo("complete");
      assertThat(run.get("tasks_accepted").asLong()).isEqualTo(3000);
      assertThat(run.get("lines_rejected").asLong()).isZero();
      assertThat(run.get("labels").get("os").asText()).isEqualTo("linux");
      assertThat(run.get("labels").get("host").asText()).isEqualTo("cluster-it");
    });
    // The batch ran as an application of the standalone master, not in local mode.
    assertThat(cluster.awaitCompletedApplications(appsBefore + 1)).isEqualTo(appsBefore + 1);
  }
}
