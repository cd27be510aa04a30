package dev.benchlake.app.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mytools result tree made by the real sysbench (ingest's fixture: two rounds of PostgreSQL 14
 * and 16) ingested in one call, one run per result folder, then {@code benchlake trend}: its relative
 * QPS per step and version are the ratios of the {@code sb.r.qps} figures run.sh wrote, within their
 * rounding, every step lands in the study's group for it (spelled out here from the issue's
 * definitions, not read from the engine's rules), and every group has an interval from its per-run
 * figures.
 */
@org.junit.jupiter.api.Tag("integration")
class MytoolsTrendTest extends SparkTestBase {
  private static final String TREE = "/dev/benchlake/ingest/fixtures/mytools";

  /**
   * The study's five groups for the tree's steps: point queries but random-points (all_small.sh's
   * first point-query.pre, at dop 2, among them), random-points, aggregating read-only, writes.
   */
  private static final Map<String, String> GROUPS = Map.of(
      "point-query.pre_range=100", "point query, part 1",
      "point-query.pre_range=100_dop=2", "point query, part 1",
      "point-query_range=100", "point query, part 1",
      "random-points_range=10", "point query, part 2",
      "read-only_range=10", "range query, part 2",
      "update-index_range=100", "writes");
  private static final String DOP_2 = "point-query.pre_range=100_dop=2";
  private static final Pattern QUERIES = Pattern.compile("queries:\\s+\\d+\\s+\\((\\d+\\.\\d+) per sec\\.\\)");

  @TempDir
  Path dir;

  @Test
  void relativeQpsPerStepAndVersionAreTheRatiosOfTheSummariesAndEveryGroupHasAnInterval() throws Exception {
    Path tree = copyTree(dir.resolve("tree"));
    Path warehouseDir = dir.resolve("warehouse");
    Warehouse warehouse = Warehouse.at(spark, warehouseDir.toString());
    Ingest.run(spark, warehouse, IngestRequest.of(tree).withPathLabels(PathLabels.of(List.of("/r(?<round>\\d+)/"), false)));

    // One run per folder: two rounds of 14 and of 16, every step in each.
    Path out = dir.resolve("trend");
    CommandRun trend = CommandRun.of(new TrendCommand(), "--warehouse", warehouseDir.toString(), "--by", "db_major",
        "--base", "14", "--metric", "qps", "--out", out.toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isEqualTo(ExitCode.OK);
    JsonNode report = Json.mapper().readTree(out.resolve("trend.json").toFile());
    // The count: one run per sb.o file read "14: 12 runs" for these 2 rounds.
    assertThat(Files.readString(out.resolve("trend.md"))).contains("- Runs per version: 14: 2, 16: 2.\n");

    // step → major → the sb.r.qps figures of its rounds (one figure each: the dop-1 output), and
    // for the dop-2 step, which no summary holds, its sb.o's queries per second.
    Map<String, Map<String, List<Double>>> summaries = new TreeMap<>();
    Map<String, List<Double>> dop2 = new TreeMap<>();
    try (Stream<Path> files = Files.walk(tree)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = f.getFileName().toString();
        String major = f.getParent().getFileName().toString().substring("x.pg".length(), "x.pg".length() + 2);
        if (name.startsWith("sb.r.qps.")) {
          String[] fields = Files.readString(f).strip().split("\t");
          assertThat(fields).as(f.toString()).hasSize(2);
          String[] label = fields[1].split(" ");
          String step = label[1] + "_" + label[2];
          summaries.computeIfAbsent(step, s -> new TreeMap<>()).computeIfAbsent(major, m -> new ArrayList<>())
              .add(Double.parseDouble(fields[0]));
        } else if (name.equals("sb.o.point-query.pre.range100.pk1.dop2")) {
          Matcher m = QUERIES.matcher(Files.readString(f));
          assertThat(m.find()).as(f.toString()).isTrue();
          dop2.computeIfAbsent(major, x -> new ArrayList<>()).add(Double.parseDouble(m.group(1)));
        }
      }
    }
    assertThat(summaries).hasSize(5);
    List<String> checked = new ArrayList<>();
    for (JsonNode step : report.get("steps")) {
      String name = step.get("step").asText();
      double relative = step.get("relative").get("16").asDouble();
      assertThat(step.get("relative").get("14").asDouble()).isEqualTo(1.0);
      assertThat(step.get("runs").get("16").asInt()).as("two rounds").isEqualTo(2);
      assertThat(step.get("group").asText()).as(name + "'s group").isEqualTo(GROUPS.get(name));
      checked.add(name);
      if (name.equals(DOP_2)) {
        assertThat(relative).isCloseTo(geomean(dop2.get("16"), 0) / geomean(dop2.get("14"), 0), within(1e-5));
        continue;
      }
      Map<String, List<Double>> byMajor = summaries.get(name);
      assertThat(byMajor).as(name).isNotNull();
      assertThat(byMajor.get("14")).hasSize(2);
      // sb.r keeps %.0f of each run's QPS: the raw figure is within ±0.5 of it.
      double low = geomean(byMajor.get("16"), -0.5) / geomean(byMajor.get("14"), 0.5);
      double high = geomean(byMajor.get("16"), 0.5) / geomean(byMajor.get("14"), -0.5);
      assertThat(relative).as(name).isBetween(low, high);
      assertThat(step.get("values").get("16").asDouble()).isBetween(geomean(byMajor.get("16"), -0.5),
          geomean(byMajor.get("16"), 0.5));
    }
    assertThat(checked).containsExactlyInAnyOrderElementsOf(GROUPS.keySet());

    // Each run measured all of a group's steps: every step an interval, and so the group one, for every
    // group (one run per sb.o file left the multi-step groups without either).
    assertThat(report.get("groups")).hasSize(4).allSatisfy(g -> {
      JsonNode ci = g.get("ci95").get("16");
      double geomean = g.get("geomean").get("16").asDouble();
      assertThat(ci.isArray()).as(g.get("group") + "'s interval at 16").isTrue();
      assertThat(geomean).as(g.get("group").asText()).isBetween(ci.get(0).asDouble(), ci.get(1).asDouble());
    });
    assertThat(report.get("groups").get(0).get("group").asText()).isEqualTo("point query, part 1");
    assertThat(report.get("groups").get(0).get("steps").get("16").asInt()).isEqualTo(3);
    assertThat(report.get("messages").toString()).doesNotContain("measured by different runs");
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
        FileTrees.copy(jar.getPath(TREE), target);
      }
    } else {
      FileTrees.copy(Path.of(uri), target);
    }
    return target;
  }
}
