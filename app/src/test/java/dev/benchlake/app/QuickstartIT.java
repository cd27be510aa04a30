package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's first command, shrunk: the quickstart end to end through the real command line. */
@org.junit.jupiter.api.Tag("integration")
class QuickstartIT {
  @Test
  void runsTheWholeChainAndWritesTheReports(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("qs");
    CommandRun run = CommandRun.of(Benchlake.commandLine(), "quickstart", "--out", out.toString(), "--runs", "2",
        "--step-duration", "300ms", "--warmup", "100ms", "--master", "local[2]");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);

    // 2 majors x 2 runs x 2 workloads, each a complete loadgen run, all ingested.
    try (Stream<Path> runs = Files.list(out.resolve("runs"))) {
      assertThat(runs.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly(
          "pg14-run1-select-update", "pg14-run1-sysbench", "pg14-run2-select-update", "pg14-run2-sysbench",
          "pg17-run1-select-update", "pg17-run1-sysbench", "pg17-run2-select-update", "pg17-run2-sysbench");
    }
    assertThat(run.stderr()).contains("quickstart: ingested 8 runs").contains(", 0 lines rejected");

    JsonNode report = Json.mapper().readTree(out.resolve("compare/report.json").toFile());
    assertThat(report.get("baseline").get("selector").asText()).isEqualTo("db_major=14");
    assertThat(report.get("candidate").get("selector").asText()).isEqualTo("db_major=17");
    assertThat(report.get("steps")).extracting(s -> s.get("step").asText())
        .containsExactly("insert", "point-select", "read-only", "select-update", "update-index");
    for (JsonNode step : report.get("steps")) {
      assertThat(step.get("baseline").get("runs").asInt()).isEqualTo(2);
      assertThat(step.get("candidate").get("runs").asInt()).isEqualTo(2);
      // Every step has θ with its run-level interval, and a verdict of the four.
      assertThat(step.get("verdict").asText()).isIn("faster", "slower", "equivalent", "inconclusive");
      assertThat(step.get("run_level").get("ratio").isNumber()).as(step.get("step").asText()).isTrue();
      assertThat(step.get("run_level").get("ci95").get(0).isNumber()).isTrue();
      // θ itself, unless its interval spans more than a factor of 2 (two runs a side on a busy machine).
      JsonNode ci95 = step.get("run_level").get("ci95");
      String change = ci95.get(1).asDouble() / ci95.get(0).asDouble() > Range.TOO_NOISY_FACTOR ? "too noisy to say"
          : "[+-]\\d+\\.\\d%";
      assertThat(run.stdout()).containsPattern("\\| `" + step.get("step").asText()
          + "` \\| " + change + " \\| \\[[+-]\\d+\\.\\d%, [+-]\\d+\\.\\d%\\] \\| \\*\\*");
    }
    assertThat(run.stdout()).doesNotContainIgnoringCase("no significant difference")
        .doesNotContain("no_significant_difference");
    assertThat(run.stdout()).contains("| step | change (θ) | 95% interval | verdict | runs | runs needed |")
        .contains("Comparison report: " + out.resolve("compare/report.html").toAbsolutePath().normalize())
        .contains("Trend report:      " + out.resolve("trend/trend.html").toAbsolutePath().normalize());
    for (String file : List.of("compare/report.md", "compare/report.html", "trend/trend.json", "trend/trend.md",
        "trend/trend.html")) {
      assertThat(out.resolve(file)).as(file).isNotEmptyFile();
    }
    assertThat(Files.readString(out.resolve("compare/report.html"), StandardCharsets.UTF_8))
        // The command that makes the report again; the template escapes '=' as every input character that HTML could misread.
        .contains("benchlake compare --warehouse").contains("--baseline db_major&#x3D;14 --candidate db_major&#x3D;17");

    // The trend: every step's throughput at 17 relative to 14, from the same runs.
    JsonNode trend = Json.mapper().readTree(out.resolve("trend/trend.json").toFile());
    assertThat(trend.get("by").asText()).isEqualTo("db_major");
    assertThat(trend.get("base").asText()).isEqualTo("14");
    assertThat(trend.get("versions")).extracting(JsonNode::asText).containsExactly("14", "17");
    assertThat(trend.get("steps")).extracting(s -> s.get("step").asText())
        .containsExactlyInAnyOrder("insert", "point-select", "read-only", "select-update", "update-index");
    for (JsonNode step : trend.get("steps")) {
      assertThat(step.get("relative").get("14").asDouble()).isEqualTo(1.0);
      assertThat(step.get("relative").get("17").asDouble()).as(step.get("step").asText()).isPositive();
    }

    // Running it again replaces its own folder; a foreign non-empty folder is refused.
    Path foreign = Files.createDirectories(dir.resolve("foreign"));
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    assertThat(Benchlake.commandLine().execute("quickstart", "--out", foreign.toString())).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(foreign.resolve("notes.txt")).exists();
  }
}
