package dev.benchlake.analysis.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.analysis.trend.TrendFixture;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@org.junit.jupiter.api.Tag("integration")
class TrendCommandTest extends SparkTestBase {
  private static Warehouse warehouse;

  @TempDir
  Path out;

  @BeforeAll
  static void writeWarehouse() throws Exception {
    Path root = Files.createTempDirectory("benchlake-trend-cli");
    root.toFile().deleteOnExit();
    warehouse = TrendFixture.write(spark, root.resolve("warehouse").toString());
  }

  private CommandRun run(String... args) {
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--out", out.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(new TrendCommand(), all);
  }

  @Test
  void writesTheThreeFilesWithTheUsersGroupsAndPrintsTheGroupTable() throws Exception {
    Path groups = out.resolve("groups.yaml");
    Files.writeString(groups, "steps: {oltp_delete: range query}\nrules: [{match: '^bulk', group: bulk loads}]\n",
        StandardCharsets.UTF_8);
    CommandRun r = run("--by", "db_major", "--base", "12", "--where", "workload=sysbench", "--groups", groups.toString(),
        "--margin", "2%", "--correction", "bh", "--change-point-alpha", "0.05");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.OK);
    assertThat(r.stdout()).as("the calls first").startsWith("Calls against 12: ").contains("\n\n## Groups")
        .contains("| bulk loads |").contains("| range query |");
    for (String file : List.of(TrendFiles.JSON, TrendFiles.MARKDOWN, TrendFiles.HTML)) {
      assertThat(out.resolve(file)).isNotEmptyFile();
    }
    JsonNode json = Json.mapper().readTree(out.resolve(TrendFiles.JSON).toFile());
    assertThat(json.get("base").asText()).isEqualTo("12");
    assertThat(json.get("where").asText()).isEqualTo("workload=sysbench");
    assertThat(json.get("correction").asText()).isEqualTo("bh");
    assertThat(json.get("change_point_alpha").asDouble()).isEqualTo(0.05);
    assertThat(json.get("alpha").asDouble()).as("--alpha is the calls' level, apart").isEqualTo(0.05);
    for (JsonNode step : json.get("steps")) {
      String name = step.get("step").asText();
      String expected = name.equals("oltp_delete") || name.equals("select_random_ranges") ? "range query"
          : name.equals("bulk_insert") ? "bulk loads" : step.get("group").asText();
      assertThat(step.get("group").asText()).as(name).isEqualTo(expected);
      assertThat(name).as("only sysbench runs").isNotEqualTo("point-select");
    }
    assertThat(Files.readString(out.resolve(TrendFiles.MARKDOWN), StandardCharsets.UTF_8)).contains(r.stdout());
    assertThat(r.stdout()).contains("## Change points");

    // Nightly history: by the day the runs started (the fixture's: 2026-01-01), the first day the base.
    CommandRun byDate = run("--by", "date", "--where", "workload=sysbench");
    assertThat(byDate.exitCode()).as(byDate.stderr()).isEqualTo(ExitCode.OK);
    JsonNode nightly = Json.mapper().readTree(out.resolve(TrendFiles.JSON).toFile());
    assertThat(nightly.get("by").asText()).isEqualTo("date");
    assertThat(nightly.get("base").asText()).isEqualTo("2026-01-01");
    assertThat(nightly.get("steps").get(0).get("change_points").isArray()).isTrue();
  }

  @Test
  void badInputExitsWithTwoAndOneClearLine() throws Exception {
    run("--by", "db_major", "--base", "99").assertBadInput("--base 99 is not a value of db_major");
    run("--by", "db_major", "--base", "11", "--metric", "speed").assertBadInput("--metric 'speed'");
    run("--by", "db_major", "--base", "11", "--alpha", "2").assertBadInput("--alpha");
    run("--by", "db_major", "--base", "11", "--change-point-alpha", "1").assertBadInput("--change-point-alpha must be");
    run("--by", "db_major", "--base", "11", "--groups", out.resolve("none.yaml").toString())
        .assertBadInput("groups file not found");
    Path bad = out.resolve("bad.json");
    Files.writeString(bad, "{\"rules\": [{\"match\": \"(\", \"group\": \"x\"}]}", StandardCharsets.UTF_8);
    run("--by", "db_major", "--base", "11", "--groups", bad.toString()).assertBadInput("is not a regular expression");
    run("--base", "11").assertBadInput("Missing required option: '--by");
  }
}
