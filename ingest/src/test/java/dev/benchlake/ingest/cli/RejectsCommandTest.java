package dev.benchlake.ingest.cli;

import dev.benchlake.core.testing.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.format.HostileFiles;
import dev.benchlake.warehouse.RejectType;
import dev.benchlake.warehouse.cli.RejectsCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.rejects.RejectsSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code benchlake rejects} on a warehouse holding the hostile files of {@link HostileIngestCommandTest}
 * (the same seeded mutations of real outputs, those that ingest takes) and one pgbench log with known
 * bad lines: its counts agree with the runs' {@code lines_rejected}, every type is one of
 * {@link RejectType}, examples are each file's first lines, and the known lines get their types.
 */
@Tag("integration")
class RejectsCommandTest extends IngestTestSupport {
  private static final long SEED = 20260108L;
  private static final int HOSTILE_FILES = 8;

  @TempDir
  static Path shared;

  private static Path warehouse;
  private static Path knownBad;

  @BeforeAll
  static void ingestHostileFiles() throws IOException {
    warehouse = shared.resolve("warehouse");
    Random random = new Random(SEED);
    for (int i = 0; i < HOSTILE_FILES; i++) {
      HostileFiles.Mutated m = HostileFiles.mutateOneFixture(random);
      Path file = Files.write(Files.createDirectories(shared.resolve("in" + i)).resolve(m.fileName()), m.content());
      CommandRun run = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(), "--format", m.format(),
          file.toString());
      assertThat(run.exitCode()).as(m + ": " + run.stderr()).isIn(ExitCode.OK, ExitCode.BAD_INPUT);
    }
    String log = Files.readString(fixture("pgbench_log.4242"), StandardCharsets.UTF_8)
        + "0 21 not-a-number 0 1700000000 1\ngarbage line\n";
    knownBad = Files.writeString(Files.createDirectories(shared.resolve("bad")).resolve("pgbench_bad.4242"), log,
        StandardCharsets.UTF_8);
    CommandRun bad = CommandRun.of(new IngestCommand(), "--warehouse", warehouse.toString(), "--format", "pgbench-log",
        knownBad.toString());
    assertThat(bad.exitCode()).as(bad.stderr()).isZero();
  }

  @Test
  void countsAgreeWithTheRunsAndEveryTypeIsAKnownOne() throws IOException {
    JsonNode summary = json(CommandRun.of(new RejectsCommand(), "--warehouse", warehouse.toString(), "--json"));
    long fromRuns = 0;
    for (String line : CommandRun.of(new RunsCommand(), "--warehouse", warehouse.toString(), "--json").stdout().split("\n")) {
      if (!line.isBlank()) {
        fromRuns += Json.mapper().readTree(line).get("lines_rejected").asLong();
      }
    }
    assertThat(summary.get("rejected_lines").asLong()).isEqualTo(fromRuns).isGreaterThan(2);
    Set<String> known = Arrays.stream(RejectType.values()).map(RejectType::sqlName).collect(Collectors.toSet());
    assertThat(fieldNames(summary.get("by_error_type"))).isSubsetOf(known);
    assertThat(sum(summary.get("by_error_type"))).isEqualTo(fromRuns);
    long perFile = 0;
    for (JsonNode file : summary.get("files")) {
      perFile += file.get("rejected_lines").asLong();
      JsonNode examples = file.get("examples");
      assertThat(examples.size()).isBetween(1, RejectsSummary.EXAMPLES)
          .isEqualTo((int) Math.min(RejectsSummary.EXAMPLES, file.get("rejected_lines").asLong()));
      long previous = 0;
      for (JsonNode e : examples) {
        assertThat(e.get("line_no").asLong()).as("examples are the first lines, in order").isGreaterThan(previous);
        previous = e.get("line_no").asLong();
        assertThat(known).contains(e.get("error_type").asText());
        assertThat(e.get("reason").asText()).isNotBlank();
      }
    }
    assertThat(perFile).isEqualTo(fromRuns);
  }

  @Test
  void oneRunShowsOnlyItsFilesWithTheTypesOfItsLines() throws IOException {
    String runId = null;
    for (String line : CommandRun.of(new RunsCommand(), "--warehouse", warehouse.toString(), "--json").stdout().split("\n")) {
      JsonNode run = line.isBlank() ? null : Json.mapper().readTree(line);
      if (run != null && run.get("source_files").get(0).get("path").asText().equals(knownBad.toAbsolutePath().toString())) {
        runId = run.get("run_id").asText();
      }
    }
    assertThat(runId).isNotNull();
    JsonNode summary = json(CommandRun.of(new RejectsCommand(), "--warehouse", warehouse.toString(), "--run", runId,
        "--json"));
    assertThat(summary.get("rejected_lines").asLong()).isEqualTo(2);
    assertThat(summary.get("by_error_type").get("number_format").asLong()).isEqualTo(1);
    assertThat(summary.get("by_error_type").get("field_count").asLong()).isEqualTo(1);
    JsonNode file = summary.get("files").get(0);
    assertThat(summary.get("files").size()).isEqualTo(1);
    assertThat(file.get("source_file").asText()).isEqualTo(knownBad.toAbsolutePath().toString());
    JsonNode first = file.get("examples").get(0);
    assertThat(first.get("error_type").asText()).isEqualTo("number_format");
    assertThat(first.get("column").asText()).isEqualTo("time");
    assertThat(first.get("raw_line").asText()).isEqualTo("0 21 not-a-number 0 1700000000 1");
    assertThat(file.get("examples").get(1).get("column").isNull()).as("no one field is at fault").isTrue();

    CommandRun text = CommandRun.of(new RejectsCommand(), "--warehouse", warehouse.toString(), "--run", runId);
    assertThat(text.exitCode()).isZero();
    assertThat(text.stdout()).contains("2 rejected lines in 1 file", "number_format", "field_count",
        "[number_format time]", "'garbage line'");
  }

  @Test
  void anUnknownRunIsBadInput() {
    CommandRun run = CommandRun.of(new RejectsCommand(), "--warehouse", warehouse.toString(), "--run", "no-such-run");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().strip()).doesNotContain("\n").contains("no committed run 'no-such-run'");
  }

  private static JsonNode json(CommandRun run) throws IOException {
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return Json.mapper().readTree(run.stdout());
  }

  private static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new java.util.TreeSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static long sum(JsonNode node) {
    Map<String, Long> values = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      values.put(e.getKey(), e.getValue().asLong());
    }
    return values.values().stream().mapToLong(Long::longValue).sum();
  }
}
