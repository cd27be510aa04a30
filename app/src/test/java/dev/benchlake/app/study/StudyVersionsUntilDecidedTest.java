package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code study versions --design duet --until-decided} end to end (issue 28.2, 28.4): PostgreSQL 14
 * against 17, one read step, at most 3 rounds (so its one look is after round 3), 2 a/a rounds.
 * The a/a rounds, spread through the study and complete when it stops, are compared on their own
 * ({@code aa/}); the trend is decided at the look's level, names the rule and the round it stopped
 * at, and carries the control (in its warnings, leading, when the control is not equivalent; else
 * in its methods).
 */
@Tag("integration")
class StudyVersionsUntilDecidedTest {
  @Test
  void aDuetOfVersionsRunsRoundByRoundToItsLookAndReportsItsControl(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("study");
    CommandRun run = CommandRun.of(Cli.commandLine(new StudyCommand()), "versions", "--pg", "14,17",
        "--design", "duet", "--until-decided", "--max-rounds", "3", "--aa-rounds", "2",
        "--steps", "point-query_range=100", "--read-duration", "500ms", "--write-duration", "500ms", "--warmup", "0s",
        "--tables", "1", "--table-size", "2000", "--clients", "2", "--seed", "5", "--out", out.toString(),
        "--warehouse", dir.resolve("wh").toString(), "--master", "local[2]");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stderr()).contains("run until decided: ").contains("study: look after round 3 of at most 3")
        .contains("the a/a control: side b with side a over its 2 rounds");

    JsonNode study = Json.mapper().readTree(out.resolve("study.json").toFile());
    assertThat(study.get("design").asText()).isEqualTo("duet");
    assertThat(study.get("until_decided").get("stopped_after_round").asInt()).isEqualTo(3);
    assertThat(study.get("until_decided").get("rule").asText()).startsWith("Haybittle");
    List<String> rounds = new ArrayList<>();
    study.get("order").forEach(r -> rounds.add(r.get("round").asInt() + (r.has("control") ? "aa" : "")
        + r.get("side").asText()));
    assertThat(rounds).as("2 a/a and 3 comparison rounds, two sides each").hasSize(10);
    assertThat(rounds).filteredOn(r -> r.contains("aa")).hasSize(4);
    // The control's rounds where the seed placed them, one in each half of the study: complete.
    JsonNode sideA = study.get("cpu_sets").get("side_a");
    assertThat(sideA).as("side a's set in each of the 5 rounds, recorded").hasSize(5);

    JsonNode trend = Json.mapper().readTree(out.resolve("trend/trend.json").toFile());
    assertThat(trend.get("design").asText()).isEqualTo("duet");
    JsonNode step = trend.get("steps").get(0);
    assertThat(step.get("relative").get("17").asDouble()).isPositive();
    assertThat(trend.get("methods").toString()).contains("Run until decided: Haybittle",
        "stopped after round 3 of at most 3");

    JsonNode aa = Json.mapper().readTree(out.resolve("aa/report.json").toFile());
    assertThat(aa.get("baseline").get("selector").asText()).contains("control=aa", "side=a");
    assertThat(aa.get("steps")).singleElement()
        .satisfies(s -> assertThat(s.get("run_level").get("pairs").get("count").asInt()).isEqualTo(2));
    // The answer before the paths (issue 49): the calls, the groups, the control's verdict; then its page.
    assertThat(run.stdout()).contains("Calls against 14: ").contains("a/a control:  " + out.resolve("aa"));
    assertThat(run.stdout().indexOf("Calls against 14: ")).isLessThan(run.stdout().indexOf("Trend report: "));
    boolean reliable = run.stdout().lines().anyMatch(l -> l.startsWith("A/a control (both sides the same): "));
    assertThat(run.stdout().lines().anyMatch(l -> l.startsWith("A/a control (both sides the same): ")
        || l.startsWith("Unreliable: ") || l.startsWith("Control too short"))).isTrue();
    if (reliable) {
      assertThat(trend.get("methods").toString()).contains("A/a control (both sides the same)");
    } else {
      assertThat(trend.get("warnings").get(0).asText()).matches("(Unreliable: the a/a control|Control too short to "
          + "confirm the method: the a/a control).*");
    }
  }
}
