package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.warehouse.cli.RunsCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code study versions} end to end through the real command line: two majors, two rounds, four steps. */
@Tag("integration")
class StudyVersionsTest {
  private static final List<String> STEPS = List.of("point-query_range=100", "read-only_range=10",
      "update-index_range=100", "scan_range=100");

  @Test
  void runsInterleavedIngestsAndWritesTheTrend(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("study");
    Path warehouse = dir.resolve("wh");
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--rounds", "2", "--steps", String.join(",", STEPS), "--read-duration", "300ms", "--write-duration", "300ms",
        "--warmup", "0s", "--tables", "1", "--table-size", "2000", "--clients", "2", "--seed", "7", "--out", out.toString(),
        "--warehouse", warehouse.toString(), "--master", "local[2]");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    // A line a round; each run's start and end, its steps and the ingest only with --verbose (issue 49).
    assertThat(run.stderr()).contains("study: round 1 of 2: time left known after the first round")
        .containsPattern("study: round 2 of 2: about .+ left").doesNotContain("complete in")
        .doesNotContain("ingested 4 runs");

    // study.json records the order: each round runs both majors once.
    JsonNode study = Json.mapper().readTree(out.resolve("study.json").toFile());
    assertThat(study.get("seed").asLong()).isEqualTo(7);
    List<String> order = new ArrayList<>();
    study.get("order").forEach(r -> order.add(r.get("round").asInt() + ":" + r.get("db_major").asInt()));
    assertThat(order).hasSize(4);
    assertThat(order.subList(0, 2)).containsExactlyInAnyOrder("1:14", "1:17");
    assertThat(order.subList(2, 4)).containsExactlyInAnyOrder("2:14", "2:17");

    // The warehouse holds the 4 runs, told apart by db_major, tied together by the study's label.
    CommandRun runs = CommandRun.of(Cli.commandLine(new RunsCommand()), "--warehouse", warehouse.toString(),
        "--json", "--master", "local[2]");
    assertThat(runs.exitCode()).as(runs.stderr()).isEqualTo(ExitCode.OK);
    List<JsonNode> rows = new ArrayList<>();
    for (String line : runs.stdout().strip().split("\n")) {
      rows.add(Json.mapper().readTree(line));
    }
    assertThat(rows).hasSize(4);
    assertThat(rows).extracting(r -> r.get("db_major").asText()).containsExactlyInAnyOrder("14", "14", "17", "17");
    assertThat(rows).extracting(r -> r.get("labels").get("study_id").asText()).containsOnly(
        study.get("study_id").asText());

    // trend.json: every step, 17 relative to 14 with an interval over the two repeats.
    JsonNode trend = Json.mapper().readTree(out.resolve("trend/trend.json").toFile());
    assertThat(trend.get("by").asText()).isEqualTo("db_major");
    assertThat(trend.get("base").asText()).isEqualTo("14");
    assertThat(trend.get("steps")).extracting(s -> s.get("step").asText()).containsExactlyInAnyOrderElementsOf(STEPS);
    for (JsonNode step : trend.get("steps")) {
      assertThat(step.get("relative").get("14").asDouble()).isEqualTo(1.0);
      assertThat(step.get("relative").get("17").asDouble()).as(step.get("step").asText()).isPositive();
    }
    // scan is counted as the study counts it (issue 26.4): the trend's figure is each run's rows per
    // second from its manifest (each client scanned every table once), not scans per second.
    JsonNode scan = null;
    for (JsonNode step : trend.get("steps")) {
      if (step.get("step").asText().equals("scan_range=100")) {
        scan = step;
      }
    }
    assertThat(scan).isNotNull();
    for (String major : List.of("14", "17")) {
      double logSum = 0;
      int n = 0;
      for (JsonNode r : study.get("order")) {
        if (r.get("db_major").asText().equals(major)) {
          RunManifest m = RunManifest.read(out.resolve(r.get("run_dir").asText()).resolve("manifest.json"));
          assertThat(m.stepMetrics()).singleElement().satisfies(f -> assertThat(f.step()).isEqualTo("scan_range=100"));
          double rowsPerS = m.stepMetrics().get(0).value();
          // Two clients, one table of 2000 rows: two scans, whose tasks alone would give scans per second.
          long scans = TaskCsvLines.count(out.resolve(r.get("run_dir").asText()), "scan_range=100");
          assertThat(scans).isEqualTo(2);
          logSum += Math.log(rowsPerS);
          n++;
        }
      }
      // trend.json prints 6 significant digits.
      assertThat(scan.get("values").get(major).asDouble()).as("scan's figure of PostgreSQL " + major)
          .isCloseTo(Math.exp(logSum / n), org.assertj.core.data.Percentage.withPercentage(0.001));
    }
    for (String file : List.of("trend.md", "trend.html")) {
      assertThat(out.resolve("trend").resolve(file)).isNotEmptyFile();
    }
    assertThat(Files.list(out.resolve("runs")).map(p -> p.getFileName().toString()).sorted().toList())
        .containsExactly("r1-pg14", "r1-pg17", "r2-pg14", "r2-pg17");
    assertThat(study.get("design").asText()).isEqualTo("interleaved");
    assertThat(rows).extracting(r -> r.get("labels").get("design").asText()).containsOnly("interleaved");
  }

  /** The lines of a run's tasks.csv of one step. */
  private static final class TaskCsvLines {
    static long count(Path runDir, String step) throws java.io.IOException {
      try (var lines = Files.lines(runDir.resolve("tasks.csv"))) {
        return lines.skip(1).filter(l -> l.startsWith(step + ",")).count();
      }
    }
  }

  /**
   * A setting PostgreSQL refuses is bad input before any run (issue 26.4): one line naming the
   * major and the setting, exit 2, nothing written.
   */
  @Test
  void aSettingPostgresRefusesIsOneLineAndNothingIsWritten(@TempDir Path dir) {
    Path out = dir.resolve("study");
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--pg-setting", "work_mem=lots", "--out", out.toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().lines().filter(l -> !l.startsWith("study: checking")).toList()).singleElement()
        .satisfies(l -> assertThat(l).contains("PostgreSQL 14: --pg-setting work_mem=lots:").contains("work_mem"));
    assertThat(out).doesNotExist();
  }
}
