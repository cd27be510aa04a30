package dev.benchlake.app.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.analysis.testing.BrowserPage;
import dev.benchlake.core.Json;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.ProgressListener;
import dev.benchlake.loadgen.RunResult;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.loadgen.db.EmbeddedServer;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's confounder proof, through every layer: loadgen's sysbench steps (writes, then point
 * reads) on two embedded PostgreSQL 17 servers with autovacuum off, one run with
 * {@code --between-steps none} on the first, one with {@code vacuum-analyze} and one with
 * {@code none} again on the second; ingest; then compare and trend. The reads after the writes start
 * with the writes' dead tuples under {@code none} and with none after the vacuum: that step is
 * flagged, with the figures, in report.json, trend.json, the verdict sentence and both HTML pages
 * (headless Chromium); the writes themselves (both sides start vacuumed) and the two identical
 * protocols give no flag.
 */
@org.junit.jupiter.api.Tag("integration")
class TableMaintenanceConfoundersTest extends SparkTestBase {
  private static final Map<String, String> AUTOVACUUM_OFF = Map.of("autovacuum", "off");

  @TempDir
  Path dir;

  @Test
  void theReadsAfterTheWritesAreFlaggedUnlessVacuumedBetweenAndIdenticalProtocolsAreNot() throws Exception {
    List<Path> runs = new ArrayList<>();
    try (EmbeddedServer a = server("a"); EmbeddedServer b = server("b")) {
      runs.add(loadgen(a, "none-a", BetweenSteps.NONE, "none"));
      runs.add(loadgen(b, "vacuum-b", BetweenSteps.VACUUM_ANALYZE, "vacuum"));
      runs.add(loadgen(b, "none-b", BetweenSteps.NONE, "none-again"));
    }
    StepHealth reads = RunManifest.read(runs.get(0).resolve("manifest.json")).stepHealth().get(1);
    assertThat(reads.step()).isEqualTo("point-select");
    String deadFraction = String.format(Locale.ROOT, "%.3f", reads.healthBefore().deadFraction());
    assertThat(reads.healthBefore().nDeadTup()).as("the writes' dead tuples, autovacuum off").isPositive();

    Warehouse warehouse = Warehouse.at(spark, dir.resolve("wh").toString());
    Ingest.run(spark, warehouse, IngestRequest.of(runs.toArray(new Path[0])));

    JsonNode confounded = compare(warehouse, "protocol=none", "protocol=vacuum", "c1");
    JsonNode point = step(confounded, "point-select");
    assertThat(point.get("confounders")).singleElement().satisfies(c -> {
      assertThat(c.get("kind").asText()).isEqualTo("dead_tuples");
      assertThat(c.get("detail").asText()).contains("the baseline " + deadFraction, "the candidate 0.000",
          "more than 0.050");
    });
    assertThat(point.get("explanation").asText()).as("the verdict never without the flag")
        .containsPattern("^[A-Z][a-z]+ \\(confounded: dead_tuples\\): ").contains("Table maintenance differs");
    assertThat(step(confounded, "update-index").get("confounders")).as("both sides start the writes vacuumed").isEmpty();
    BrowserPage comparePage = BrowserPage.render(dir.resolve("c1/report.html"), "confounders-compare", 1366, 3000);
    assertThat(comparePage.markup()).contains("⚠ confounded: dead_tuples", "data-table-health", deadFraction);

    JsonNode same = compare(warehouse, "protocol=none", "protocol=none-again", "c2");
    for (JsonNode s : same.get("steps")) {
      assertThat(s.get("confounders")).as("identical protocols: " + s.get("step")).isEmpty();
      assertThat(s.get("explanation").asText()).doesNotContain("confounded");
    }

    CommandRun trend = CommandRun.of(new TrendCommand(), "--warehouse", warehouse.root(), "--by", "protocol", "--base", "none",
        "--order-by", "started_at",
        "--metric", "qps", "--out", dir.resolve("t").toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isZero();
    JsonNode t = Json.mapper().readTree(Files.readString(dir.resolve("t/trend.json")));
    JsonNode tPoint = step(t, "point-select").get("confounders");
    assertThat(tPoint.get("none").isNull()).as("none at the base").isTrue();
    assertThat(tPoint.get("vacuum")).singleElement().satisfies(c -> {
      assertThat(c.get("kind").asText()).isEqualTo("dead_tuples");
      assertThat(c.get("detail").asText()).contains("none " + deadFraction, "vacuum 0.000");
    });
    assertThat(tPoint.get("none-again")).isEmpty();
    assertThat(step(t, "update-index").get("confounders").get("vacuum")).isEmpty();
    assertThat(Files.readString(dir.resolve("t/trend.md"))).contains("## Table maintenance",
        "`point-select`, vacuum against none: dead_tuples: dead-tuple fraction at the step's start: none " + deadFraction);
    BrowserPage trendPage = BrowserPage.render(dir.resolve("t/trend.html"), "confounders-trend", 1366, 3000);
    assertThat(trendPage.markup()).contains("⚠ confounded: dead_tuples", "id=\"table-maintenance\"")
        .contains("id=\"js-errors\" data-count=\"0\"");
    // On the chart too: point-select's bar at vacuum is outlined and marked, and only that one.
    assertThat(BrowserPage.countOf(trendPage.markup(), "data-confounded=\"1\"")).as("one group chart, one figure").isEqualTo(1);
    assertThat(BrowserPage.countOf(trendPage.markup(), "data-confounded=\"0\"")).isPositive();
    assertThat(trendPage.markup()).contains("confounded_marks");
  }

  private EmbeddedServer server(String name) throws Exception {
    return EmbeddedServer.start(new EmbeddedServer.Options(17, AUTOVACUUM_OFF, 4, Files.createDirectories(dir.resolve(
        "pg-" + name))));
  }

  /** Writes then point reads, 1,000 tasks each (about a second here) on 2,000 rows. */
  private Path loadgen(EmbeddedServer server, String runId, BetweenSteps between, String protocol) {
    Path out = dir.resolve(runId);
    LoadgenConfig config = LoadgenConfig.builder().target(new LoadgenConfig.Embedded(17, AUTOVACUUM_OFF, null))
        .workload("sysbench").steps(List.of("update-index", "point-select")).tables(1).tableSize(2_000)
        .mode(LoadgenConfig.Mode.closed(2)).tasks(1_000L).betweenSteps(between).randomSeed(15L).outDir(out)
        .runId(runId).labels(Map.of("protocol", protocol)).environment(Map.of()).build();
    RunResult result = Loadgen.run(config, ProgressListener.NONE, server);
    assertThat(result.status()).isEqualTo(RunStatus.COMPLETE);
    return out;
  }

  private JsonNode compare(Warehouse warehouse, String baseline, String candidate, String out) throws Exception {
    CommandRun compare = CommandRun.of(new CompareCommand(), "--warehouse", warehouse.root(), "--baseline", baseline, "--candidate",
        candidate, "--out", dir.resolve(out).toString());
    assertThat(compare.exitCode()).as(compare.stderr()).isZero();
    return Json.mapper().readTree(Files.readString(dir.resolve(out).resolve("report.json")));
  }

  private static JsonNode step(JsonNode report, String name) {
    for (JsonNode s : report.get("steps")) {
      if (s.get("step").asText().equals(name)) {
        return s;
      }
    }
    throw new AssertionError("no step " + name + " in " + report);
  }

}
