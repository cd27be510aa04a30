package dev.benchlake.ingest.cli;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code benchlake ingest TREE}: the committed mytools tree (two rounds of PostgreSQL 14 and 16,
 * real sysbench) in one command, then a copy with one tampered summary.
 */
@org.junit.jupiter.api.Tag("integration")
class MytoolsIngestTest extends IngestTestSupport {
  private static final Path TREE = fixture("mytools");

  private static CommandRun ingest(Path warehouse, String... args) {
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(new IngestCommand(), all.toArray(String[]::new));
  }

  @Test
  void theTreeIsOneCommandOneRunPerRawOutputWithItsLabels() throws IOException {
    List<Path> rawOutputs = files(TREE, "sb.o.");
    CommandRun run = ingest(tmp.resolve("warehouse"), "--label-from-path", "/r(?<round>\\d+)/x\\.",
        "--label-from-path", "x\\.pg(?<pg_major>\\d\\d)(?<pg_minor>\\d+)_", "--label", "os=linux", TREE.toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stdout().lines().toList()).hasSize(rawOutputs.size()).allMatch(id -> id.matches("mytools-[0-9a-f]{16}"));

    List<Row> runs = warehouse().runs().orderBy("run_id").collectAsList();
    assertThat(runs).hasSize(24);
    Map<String, List<String>> qpsSteps = new TreeMap<>();
    for (Row m : warehouse().stepMetrics().where(col("metric").equalTo("qps")).select("run_id", "step").collectAsList()) {
      qpsSteps.computeIfAbsent(m.getString(0), id -> new ArrayList<>()).add(m.getString(1));
    }
    Map<String, Integer> perFolderAndStep = new TreeMap<>();
    for (Row r : runs) {
      Map<String, String> labels = CollectionConverters.asJava(r.<scala.collection.Map<String, String>>getAs("labels"));
      String major = r.getAs("db_major").toString();
      assertThat(labels).containsEntry("dbms", "pg").containsEntry("build", "embedded").containsEntry("config", "default")
          .containsEntry("pk", "1").containsEntry("os", "linux").containsEntry("pg_major", major)
          .containsEntry("version", major + labels.get("pg_minor")).containsKey("round");
      assertThat(r.<String>getAs("db_version")).isEqualTo(major + "." + labels.get("pg_minor"));
      assertThat(r.<String>getAs("workload")).isEqualTo("sysbench");
      assertThat(r.<String>getAs("source_format")).isEqualTo("mytools");
      assertThat(r.<String>getAs("metadata_json")).doesNotContain("password").doesNotContain("\"pw\"");
      List<String> steps = qpsSteps.get(r.<String>getAs("run_id"));
      assertThat(steps).hasSize(1);
      perFolderAndStep.merge("r" + labels.get("round") + " pg" + major + " " + steps.get(0) + " dop"
          + r.getAs("clients"), 1, Integer::sum);
    }
    assertThat(perFolderAndStep.values()).containsOnly(1);
    assertThat(perFolderAndStep.keySet()).contains("r1 pg14 point-query.pre_range=100 dop1",
        "r1 pg14 point-query.pre_range=100 dop2", "r2 pg16 update-index_range=100 dop1", "r2 pg16 random-points_range=10 dop1");
    assertThat(warehouse().rejects().count()).isZero();

    // The summary lists what is not a result, never skipping it silently.
    List<Path> others = new ArrayList<>(files(TREE, ""));
    others.removeIf(p -> p.getFileName().toString().startsWith("sb.o.") || p.getFileName().toString().startsWith("sb.r."));
    assertThat(others).hasSize(4 * (1 + 2 + 6 + 5));
    for (Path other : others) {
      assertThat(run.stderr()).contains(other + ": not a result (");
    }
    assertThat(run.stderr()).contains(TREE.resolve("r1/x.pg1424_embedded.default.pk1/conf.diff")
        + ": not a result (server configuration (differences from the defaults)), not read",
        others.size() + " files are not results (listed above)");
    assertThat(run.stderr()).contains(TREE.resolve("r2/x.pg1615_embedded.default.pk1/sb.r.qps.point-query.range100.pk1")
        + ": accepted 1, rejected 0");
  }

  @Test
  void aTamperedSummaryIsARejectWithItsReasonAndTheRunStays() throws IOException {
    Path copy = tmp.resolve("tree/x.pg1615_embedded.default.pk1");
    Files.createDirectories(copy);
    Path source = TREE.resolve("r1/x.pg1615_embedded.default.pk1");
    try (Stream<Path> files = Files.list(source)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    Path qps = copy.resolve("sb.r.qps.read-only.range10.pk1");
    String[] fields = Files.readString(qps).strip().split("\t");
    String tampered = Math.round(Double.parseDouble(fields[0]) * 1.1) + "\t" + fields[1];
    Files.writeString(qps, tampered + "\n", StandardCharsets.UTF_8);

    CommandRun run = ingest(tmp.resolve("warehouse"), copy.getParent().toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stderr()).contains(qps + ": accepted 0, rejected 1");
    Warehouse w = warehouse();
    assertThat(w.runs().count()).isEqualTo(6);
    List<Row> rejects = w.rejects().collectAsList();
    assertThat(rejects).singleElement().satisfies(r -> {
      assertThat(r.<String>getAs("source_file")).isEqualTo(qps.toString());
      assertThat(r.<Long>getAs("line_no")).isEqualTo(1L);
      assertThat(r.<String>getAs("raw_line")).isEqualTo(tampered);
      assertThat(r.<String>getAs("error_type")).isEqualTo("mismatch");
      assertThat(r.<String>getAs("column")).isEqualTo("qps");
      assertThat(r.<String>getAs("reason")).isEqualTo("disagrees with the raw sysbench output: qps " + tampered.split("\t")[0]
          + " for dop 1 disagrees with sb.o.read-only.range10.pk1.dop1, which gives " + fields[0]);
    });
    // The reject belongs to the run of the raw output it was checked against, which keeps its figures.
    Row readOnly = w.runs().where(col("run_id").equalTo(rejects.get(0).<String>getAs("run_id"))).first();
    assertThat(readOnly.<Long>getAs("lines_rejected")).isEqualTo(1L);
    assertThat(w.stepMetrics().where(col("run_id").equalTo(readOnly.<String>getAs("run_id"))
        .and(col("metric").equalTo("qps"))).first().<String>getAs("step")).isEqualTo("read-only_range=10");
  }

  private static List<Path> files(Path root, String prefix) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }
}
