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

  /**
   * A step read over its measured window carries the window's length as a row of its own; an
   * older manifest's step (its warm-up included) carries none, so a reader can tell them apart.
   */
  @Test
  void aMeasuredWindowsStepSaysSoAndAnOlderStepDoesNot() {
    List<String> lines = List.of(
        "{\"run_id\": \"r\",",
        " \"step_resources\": [",
        "  {\"step\": \"older\", \"tasks\": 4, \"counters\": [",
        "    {\"name\": \"xact_commit\", \"before\": 10, \"after\": 14, \"unit\": \"count\"}]},",
        "  {\"step\": \"newer\", \"tasks\": 8, \"counters\": [",
        "    {\"name\": \"xact_commit\", \"before\": 10, \"after\": 18, \"unit\": \"count\"}],",
        "   \"window\": \"measured\", \"from_epoch_ns\": 1000000000, \"to_epoch_ns\": 3500000000,",
        "   \"profile\": {\"not_profiled\": \"perf not found on the PATH\"}}",
        " ]",
        "}");
    RenderingSink sink = new RenderingSink();
    new LoadgenManifestParser().parse(lines, sink);
    assertThat(sink.text().lines().filter(l -> l.contains(" metric"))).containsExactly(
        "L3 metric step=older interval=run commits_per_op=1.0 count",
        "L5 metric step=newer interval=run commits_per_op=1.0 count",
        "L5 metric step=newer interval=run resource_window_s=2.5 s");
  }
}
