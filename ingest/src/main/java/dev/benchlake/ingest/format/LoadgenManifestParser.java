package dev.benchlake.ingest.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.core.raw.StepMetric;
import dev.benchlake.core.raw.StepResources;
import dev.benchlake.core.raw.TableHealth;
import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.ingest.source.Bom;
import dev.benchlake.warehouse.SchemaColumns;
import dev.benchlake.warehouse.WarehouseSchema;
import java.io.IOException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;

/**
 * loadgen's {@code manifest.json}: every line is metadata, but for the lines where an entry of
 * {@code step_health} begins, which carry that step's table health as one {@code table_health}
 * row per task name ({@link WarehouseSchema#STEP_METRICS}, format 3), and those where an entry of
 * {@code step_metrics} begins: a whole-step figure the run computed itself (scan's rows per
 * second as its {@code qps}), one whole-run row, and those where an entry of {@code step_resources}
 * begins: its per-operation resource figures ({@link StepResourceRows}). A manifest without them
 * (an older loadgen) gives no such row: its steps' table health reads as "not recorded". The driver has already read the
 * manifest as a whole (the run's facts come from there); an entry that does not read as table
 * health or as a figure is left as metadata, not guessed at.
 */
final class LoadgenManifestParser implements DocumentParser {
  private static final long serialVersionUID = 1L;

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    Map<Long, List<ParsedMetric>> byLine = new TreeMap<>();
    try {
      read(lines, byLine);
    } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
      // The manifest was read whole before (a bad one stops the ingest there): a shape this
      // parser does not know adds no health rows.
      byLine.clear();
    }
    for (int i = 0; i < lines.size(); i++) {
      List<ParsedMetric> metrics = byLine.get(i + 1L);
      if (metrics == null || metrics.isEmpty()) {
        sink.metadata(i + 1);
      } else {
        for (ParsedMetric m : metrics) {
          sink.metric(i + 1, m);
        }
      }
    }
  }

  private static void read(List<String> lines, Map<Long, List<ParsedMetric>> byLine) throws IOException {
    String text = Bom.strip(String.join("\n", lines));
    String betweenSteps = null;
    List<long[]> starts = new ArrayList<>();
    List<JsonNode> entries = new ArrayList<>();
    List<long[]> figureStarts = new ArrayList<>();
    List<JsonNode> figureEntries = new ArrayList<>();
    List<long[]> resourceStarts = new ArrayList<>();
    List<JsonNode> resourceEntries = new ArrayList<>();
    try (JsonParser p = Json.mapper().getFactory().createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (field.equals("between_steps") && value == JsonToken.VALUE_STRING) {
          betweenSteps = p.getText();
        } else if (field.equals("step_health") && value == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            starts.add(new long[] {p.currentTokenLocation().getLineNr()});
            entries.add(p.readValueAsTree());
          }
        } else if (field.equals("step_metrics") && value == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            figureStarts.add(new long[] {p.currentTokenLocation().getLineNr()});
            figureEntries.add(p.readValueAsTree());
          }
        } else if (field.equals("step_resources") && value == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            resourceStarts.add(new long[] {p.currentTokenLocation().getLineNr()});
            resourceEntries.add(p.readValueAsTree());
          }
        } else {
          p.skipChildren();
        }
      }
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int k = 0; k < entries.size(); k++) {
      StepHealth step = Json.mapper().treeToValue(entries.get(k), StepHealth.class);
      if (step.step() == null) {
        continue;
      }
      ParsedMetric.Health health = new ParsedMetric.Health(row(step.healthBefore()), row(step.healthAfter()),
          step.tablesAutovacuumed(), step.tablesAutoanalyzed(), betweenSteps);
      List<String> names = step.taskNames().isEmpty() ? List.of(step.step()) : step.taskNames();
      int tables = step.healthBefore() != null ? step.healthBefore().tables()
          : step.healthAfter() != null ? step.healthAfter().tables() : 0;
      for (String name : names) {
        if (seen.merge(name, 1, Integer::sum) > 1) {
          continue; // a step name twice: the first one's health stands
        }
        byLine.computeIfAbsent(starts.get(k)[0], l -> new ArrayList<>()).add(new ParsedMetric("", name, null, null,
            WarehouseSchema.TABLE_HEALTH_METRIC, tables, "tables", null, health));
      }
    }
    figures(figureStarts, figureEntries, byLine);
    resources(resourceStarts, resourceEntries, byLine);
  }

  /** An entry that does not read as resource counters adds no row, and takes no other entry's rows with it. */
  private static void resources(List<long[]> starts, List<JsonNode> entries, Map<Long, List<ParsedMetric>> byLine) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int k = 0; k < entries.size(); k++) {
      StepResources step;
      try {
        step = Json.mapper().treeToValue(entries.get(k), StepResources.class);
      } catch (IOException | IllegalArgumentException e) {
        continue;
      }
      List<ParsedMetric> rows = StepResourceRows.rows(step, seen);
      if (!rows.isEmpty()) {
        byLine.computeIfAbsent(starts.get(k)[0], l -> new ArrayList<>()).addAll(rows);
      }
    }
  }

  /** The first figure of a step and metric stands (a manifest repeats none; this keeps the rows unique). */
  private static void figures(List<long[]> starts, List<JsonNode> entries, Map<Long, List<ParsedMetric>> byLine)
      throws IOException {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int k = 0; k < entries.size(); k++) {
      StepMetric m = Json.mapper().treeToValue(entries.get(k), StepMetric.class);
      if (m.step() == null || m.metric() == null || !Double.isFinite(m.value()) || !seen.add(m.step() + '\u0000' + m.metric())) {
        continue;
      }
      byLine.computeIfAbsent(starts.get(k)[0], l -> new ArrayList<>()).add(ParsedMetric.whole(m.step(), m.metric(),
          m.value(), m.unit()));
    }
  }

  private static Row row(TableHealth h) {
    if (h == null) {
      return null;
    }
    Map<String, Object> cells = new HashMap<>();
    cells.put("taken_at", timestamp(h.takenAt()));
    cells.put("tables", h.tables());
    cells.put("n_live_tup", h.nLiveTup());
    cells.put("n_dead_tup", h.nDeadTup());
    cells.put("autovacuum_count", h.autovacuumCount());
    cells.put("autoanalyze_count", h.autoanalyzeCount());
    cells.put("last_autovacuum", timestamp(h.lastAutovacuum()));
    cells.put("last_autoanalyze", timestamp(h.lastAutoanalyze()));
    cells.put("checkpoints", h.checkpoints());
    cells.put("buffers_written", h.buffersWritten());
    return SchemaColumns.row(WarehouseSchema.tableHealth(), cells);
  }

  private static Timestamp timestamp(String instant) {
    return instant == null ? null : Timestamp.from(Instant.parse(instant));
  }
}
