package dev.benchlake.analysis.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.Labels;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.WarehouseSchema;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * What one run of the warehouse says about what it measured, for its report's {@link Scope}: its
 * labels, the runs table's dimensions, and its source's metadata ({@code runs.metadata_json}): a
 * loadgen run's whole manifest ({@code source.manifest}), a third-party run's facts (e.g. pgbench's
 * {@code clients}). Every accessor gives a missing node or null where the run does not say.
 *
 * @param manifest the loadgen manifest as ingest stored it (snake_case keys), or a missing node
 * @param facts a third-party source's facts, or a missing node
 * @param runDir the folder of the run's manifest as ingest recorded it ({@code source_files}), or null
 */
public record ScopeRun(String runId, String sourceFormat, Map<String, String> labels, String workload,
    Integer clients, String dbVersion, JsonNode manifest, JsonNode facts, String runDir) {
  public ScopeRun {
    labels = Map.copyOf(labels);
  }

  /** A run whose folder is not known. */
  public ScopeRun(String runId, String sourceFormat, Map<String, String> labels, String workload, Integer clients,
      String dbVersion, JsonNode manifest, JsonNode facts) {
    this(runId, sourceFormat, labels, workload, clients, dbVersion, manifest, facts, null);
  }

  /** The runs of a runs table, each as its scope sees it. */
  public static List<ScopeRun> of(List<Row> runsTable) {
    return runsTable.stream().map(ScopeRun::of).toList();
  }

  /**
   * The runs of a runs table as a report's scope needs them: the runs of {@code groups} whole, every
   * other run by its labels alone (the a/a rounds are counted from them), so that a warehouse of
   * years does not have every run's manifest parsed for each report.
   */
  public static List<ScopeRun> of(List<Row> runsTable, Map<String, List<String>> groups) {
    java.util.Set<String> selected = new java.util.HashSet<>();
    groups.values().forEach(selected::addAll);
    return runsTable.stream()
        .map(row -> selected.contains(row.<String>getAs(WarehouseSchema.RUN_ID)) ? of(row) : labelsOnly(row))
        .toList();
  }

  private static ScopeRun labelsOnly(Row row) {
    return new ScopeRun(row.getAs(WarehouseSchema.RUN_ID), row.getAs("source_format"), RunSelector.labelsOf(row),
        row.getAs(Labels.WORKLOAD), row.getAs(Labels.CLIENTS), row.getAs(Labels.DB_VERSION),
        MissingNode.getInstance(), MissingNode.getInstance());
  }

  /** One runs row; metadata that is not JSON (it always is, as ingest writes it) counts as none. */
  public static ScopeRun of(Row row) {
    JsonNode metadata = MissingNode.getInstance();
    String text = row.getAs("metadata_json");
    if (text != null) {
      try {
        metadata = Json.mapper().readTree(text);
      } catch (JsonProcessingException notJson) {
        metadata = MissingNode.getInstance();
      }
    }
    return new ScopeRun(row.getAs(WarehouseSchema.RUN_ID), row.getAs("source_format"), RunSelector.labelsOf(row),
        row.getAs(Labels.WORKLOAD), row.getAs(Labels.CLIENTS), row.getAs(Labels.DB_VERSION),
        metadata.path("source").path("manifest"), metadata.path("facts"), manifestDir(row));
  }

  /** The folder of the run's {@code manifest.json} among its source files, or null. */
  private static String manifestDir(Row row) {
    int at = row.fieldIndex("source_files");
    if (row.isNullAt(at)) {
      return null;
    }
    for (Row file : row.<Row>getList(at)) {
      String path = file.getString(0);
      if (path != null && path.endsWith("/" + dev.benchlake.core.raw.RunDirectory.MANIFEST)) {
        return path.substring(0, path.length() - dev.benchlake.core.raw.RunDirectory.MANIFEST.length() - 1);
      }
    }
    return null;
  }

  /** A label's value, or null. */
  String label(String key) {
    return labels.get(key);
  }

  /** The workload's name: the runs column, else the manifest's, else null. */
  String workloadName() {
    return workload != null ? workload : text(manifest.path("workload").path("name"));
  }

  /** A node's text, or null when it is missing or null. */
  static String text(JsonNode node) {
    return node.isMissingNode() || node.isNull() ? null : node.asText();
  }
}
