package dev.benchlake.app.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.PathLabels;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mytools result tree made by the real sysbench (ingest's fixture: two rounds of PostgreSQL 14
 * and 16) ingested in one call, then {@code benchlake trend}: its relative QPS per step and version
 * are the ratios of the {@code sb.r.qps} figures run.sh wrote, within their rounding, and every step
 * lands in the study's group for it (spelled out here from the definitions, not read from
 * the engine's rules).
 */
@org.junit.jupiter.api.Tag("integration")
class MytoolsTrendTest extends SparkTestBase {
  private static final String TREE = "/dev/benchlake/ingest/fixtures/mytools";

  /** The study's five groups for the tree's steps: point queries but random-points, random-points, aggregating read-only, writes. */
  private static final Map<String, String> GROUPS = Map.of(
      "point-query.pre_range=100", "point query, part 1",
      "point-query_range=100", "point query, part 1",
      "random-points_range=10", "point query, part 2",
      "read-only_range=10", "range query, part 2",
      "update-index_range=100", "writes");

  @TempDir
  Path dir;

  @Test
  void relativeQpsPerStepAndVersionAreTheRatiosOfTheSummaries() throws Exception {
    Path tree = copyTree(dir.resolve("tree"));
    Path warehouseDir = dir.resolve("warehouse");
    Warehouse warehouse = Warehouse.at(spark, warehouseDir.toString());
    Ingest.run(spark, warehouse, IngestRequest.of(tree).withPathLabels(PathLabels.of(List.of("/r(?<round>\\d+)/"), false)));

    // clients=1: all_small.sh's first point-query.pre ran at dop 2 and is a run of its own.
    Path out = dir.resolve("trend");
    CommandRun trend = CommandRun.of(new TrendCommand(), "--warehouse", warehouseDir.toString(), "--by", "db_major",
        "--base", "14", "--metric", "qps", "--where", "clients=1", "--out", out.toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isEqualTo(ExitCode.OK);
    JsonNode report = Json.mapper().readTree(out.resolve("trend.json").toFile());

    // step → major → the sb.r.qps figures of its rounds (one figure each: the dop-1 run).
    Map<String, Map<String, List<Double>>> summaries = new TreeMap<>();
    try (Stream<Path> files = Files.walk(tree)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("sb.r.qps.")).toList()) {
        String[] fields = Files.readString(f).strip().split("\t");
        assertThat(fields).as(f.toString()).hasSize(2);
        String[] label = fields[1].split(" ");
        String step = label[1] + "_" + label[2];
        String major = f.getParent().getFileName().toString().substring("x.pg".length(), "x.pg".length() + 2);
        summaries.computeIfAbsent(step, s -> new TreeMap<>()).computeIfAbsent(major, m -> new ArrayList<>())
            .add(Double.parseDouble(fields[0]));
      }
    }
    assertThat(summaries).hasSize(5);
    List<String> checked = new ArrayList<>();
    for (JsonNode step : report.get("steps")) {
      Map<String, List<Double>> byMajor = summaries.get(step.get("step").asText());
      assertThat(byMajor).as(step.get("step").asText()).isNotNull();
      assertThat(byMajor.get("14")).hasSize(2);
      double relative = step.get("relative").get("16").asDouble();
      // sb.r keeps %.0f of each run's QPS: the raw figure is within ±0.5 of it.
      double low = geomean(byMajor.get("16"), -0.5) / geomean(byMajor.get("14"), 0.5);
      double high = geomean(byMajor.get("16"), 0.5) / geomean(byMajor.get("14"), -0.5);
      assertThat(relative).as(step.get("step").asText()).isBetween(low, high);
      assertThat(step.get("relative").get("14").asDouble()).isEqualTo(1.0);
      assertThat(step.get("values").get("16").asDouble()).isBetween(geomean(byMajor.get("16"), -0.5),
          geomean(byMajor.get("16"), 0.5));
      assertThat(step.get("runs").get("16").asInt()).as("two rounds").isEqualTo(2);
      assertThat(step.get("group").asText()).as(step.get("step").asText() + "'s group")
          .isEqualTo(GROUPS.get(step.get("step").asText()));
      checked.add(step.get("step").asText());
    }
    assertThat(checked).containsExactlyInAnyOrderElementsOf(summaries.keySet())
        .containsExactlyInAnyOrderElementsOf(GROUPS.keySet());
  }

  private static double geomean(List<Double> values, double shift) {
    return Math.exp(values.stream().mapToDouble(v -> Math.log(v + shift)).average().orElseThrow());
  }

  /** The fixture tree out of ingest's test classes: a folder, or inside its test jar in a reactor build. */
  private static Path copyTree(Path target) throws IOException {
    URL url = MytoolsTrendTest.class.getResource(TREE);
    assertThat(url).as("ingest fixture " + TREE).isNotNull();
    URI uri = URI.create(url.toString());
    if (uri.getScheme().equals("jar")) {
      try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
        copy(jar.getPath(TREE), target);
      }
    } else {
      copy(Path.of(uri), target);
    }
    return target;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
  }
}
