package dev.benchlake.ingest.format;

import dev.benchlake.core.Labels;
import dev.benchlake.warehouse.fs.Storage;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;

/**
 * What a format may know of the ingest while it plans its sources: the ingest builds it from its
 * request ({@code IngestRequest#planContext}), so formats sit below the ingest that runs them.
 *
 * @param storage the file systems the inputs (and the mapping) are read from
 * @param step {@code --step}: the step name for sources that do not name it, or null
 * @param mapping {@code --mapping}: the CSV mapping file as the user named it (a local path or a
 *     URI), or null
 * @param labels {@code --label}s (a format reads a few, e.g. TestPostgresqlPerf's {@code date})
 * @param messages receives one-line notes for the user
 */
public record PlanContext(
    Storage storage, String step, String mapping, SortedMap<String, String> labels, Consumer<String> messages) {

  public PlanContext {
    labels = Labels.copyOf(labels == null ? Map.of() : labels);
    messages = messages == null ? m -> { } : messages;
  }

  /** The mapping file as a location, or null. */
  public Path mappingLocation() {
    return mapping == null ? null : Storage.location(mapping);
  }
}
