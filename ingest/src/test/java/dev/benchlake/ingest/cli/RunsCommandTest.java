package dev.benchlake.ingest.cli;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.warehouse.cli.RunsCommand;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestTestSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.Tag("integration")
class RunsCommandTest extends IngestTestSupport {
  @Test
  void listsRunsWithCountsAndSourcesSelectedByWhere() throws Exception {
    ingest(IngestRequest.of(fixture("pgbench_log.4242"), fixture("pgbench_log.4242.1")).withLabels(Map.of("os", "linux")));
    ingest(IngestRequest.of(fixture("oltp_point_select.txt")).withLabels(Map.of("os", "windows", "host", "w1")));
    String wh = warehouse().root();

    CommandRun table = CommandRun.of(new RunsCommand(), "--warehouse", wh);
    assertThat(table.exitCode()).as(table.stderr()).isZero();
    List<String> lines = table.stdout().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("RUN_ID").contains("TASKS", "REJECTED", "METRICS", "LABELS", "SOURCES");
    assertThat(table.stdout()).contains("pgbench_log.4242,pgbench_log.4242.1").contains("os=linux").contains("host=w1,os=windows");

    CommandRun json = CommandRun.of(new RunsCommand(), "--warehouse", wh, "--where", "os=windows", "--json");
    List<String> objects = json.stdout().lines().toList();
    assertThat(objects).hasSize(1);
    JsonNode run = Json.mapper().readTree(objects.get(0));
    assertThat(run.get("source_format").asText()).isEqualTo("sysbench");
    assertThat(run.get("tasks_accepted").asLong()).isZero();
    assertThat(run.get("step_metrics_rows").asLong()).isEqualTo(23);
    assertThat(run.get("lines_rejected").asLong()).isZero();
    assertThat(run.get("labels").get("host").asText()).isEqualTo("w1");
    assertThat(run.get("source_files").get(0).get("path").asText()).endsWith("oltp_point_select.txt");
    assertThat(run.get("source_files").get(0).get("sha256").asText()).hasSize(64);

    CommandRun none = CommandRun.of(new RunsCommand(), "--warehouse", wh, "--where", "os=solaris");
    assertThat(none.exitCode()).isZero();
    assertThat(none.stderr()).contains("no runs match os=solaris");
    assertThat(CommandRun.of(new RunsCommand(), "--warehouse", tmp.resolve("none").toString()).exitCode())
        .isEqualTo(ExitCode.BAD_INPUT);
  }
}
