package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A manifest's {@code step_resources} parsed without Spark: each good entry's per-operation rows
 * on the line where it begins, and an entry that does not read as counters (a hand-edited or
 * hostile manifest) adds none and takes neither the other entries' rows nor the table health with it.
 */
class LoadgenManifestResourcesTest {
  @Test
  void aBadEntryAddsNoRowAndLosesNoOtherOne() {
    List<String> lines = List.of(
        "{\"run_id\": \"r\",",
        " \"step_health\": [",
        "  {\"step\": \"point-select\", \"task_names\": [\"point-select\"]}",
        " ],",
        " \"step_resources\": [",
        "  {\"step\": \"point-select\", \"tasks\": \"many\"},",
        "  {\"step\": \"update-index\", \"tasks\": 4, \"counters\": [",
        "    {\"name\": \"xact_commit\", \"before\": 10, \"after\": 14, \"unit\": \"count\"},",
        "    {\"name\": \"wal_bytes\", \"before\": 0, \"after\": 1000, \"unit\": \"bytes\"}],",
        "   \"not_measured\": {\"server_cpu_user_ns\": \"a server by URL\"}}",
        " ]",
        "}");
    RenderingSink sink = new RenderingSink();
    new LoadgenManifestParser().parse(lines, sink);
    assertThat(sink.text().lines().filter(l -> l.contains(" metric"))).containsExactly(
        "L3 metric step=point-select interval=run table_health=0.0 tables",
        "L7 metric step=update-index interval=run wal_bytes_per_op=250.0 bytes",
        "L7 metric step=update-index interval=run commits_per_op=1.0 count");
  }
}
