package dev.benchlake.warehouse.cli;

import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.Labels;
import dev.benchlake.core.TextTable;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.export.ExportTable;
import java.io.PrintWriter;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import scala.jdk.javaapi.CollectionConverters;

/** {@code benchlake runs}: lists the runs in a warehouse. */
@Command(name = "runs", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"List the runs in a warehouse: one line (or, with --json, one JSON object) per run:",
      "run id, format, status, start, tasks accepted, lines rejected, step_metrics rows, labels, source files.",
      "It reads the runs table with Delta Kernel and starts no Spark session, unless --master or --conf asks for Spark."})
public final class RunsCommand implements Callable<Integer>, Validated {
  /** Oldest first, then by id: the order of {@code export --table runs} too. */
  private static final List<String> ORDER = ExportTable.RUNS.order();

  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--where", paramLabel = "SELECTOR",
      description = "Only runs matching key=value[,key=value…] over labels and dimensions, e.g. os=linux,db_major=16.")
  String where;

  @Option(names = "--json", description = "One JSON object per line instead of a table.")
  boolean json;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** The warehouse's form and the selector, before anything is read. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
    RunSelector.parse(where);
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    RunSelector selector = RunSelector.parse(where);
    List<Row> runs = sparkOptions.sparkRequested() ? onSpark(selector) : withoutSpark(selector);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      for (Row run : runs) {
        out.println(Json.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
            .writeValueAsString(toJson(run)));
      }
    } else if (runs.isEmpty()) {
      spec.commandLine().getErr().println("no runs match " + selector + " in " + warehouseOption.dir());
    } else {
      TextTable table = new TextTable("RUN_ID", "FORMAT", "STATUS", "STARTED", "TASKS", "REJECTED", "METRICS", "LABELS",
          "SOURCES");
      for (Row run : runs) {
        table.row(run.getAs("run_id"), run.getAs("source_format"), run.getAs("status"),
            formatTime(run.getAs("started_at")), run.getAs("tasks_accepted"), run.getAs("lines_rejected"),
            run.getAs("step_metrics_rows"), labelsText(run), sourcesText(run));
      }
      out.print(table.render());
    }
    out.flush();
    return ExitCode.OK;
  }

  private List<Row> onSpark(RunSelector selector) {
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("runs")).requireExisting();
    return selector.apply(warehouse.runs()).orderBy(ORDER.get(0), ORDER.get(1)).collectAsList();
  }

  /** The same rows in the same order, read with Delta Kernel (a few hundred runs: milliseconds). */
  private List<Row> withoutSpark(RunSelector selector) {
    List<Row> runs = new ArrayList<>(selector.filter(warehouseOption.openWithoutSpark().requireExisting().runs()));
    runs.sort(ExportTable.RUNS.rowOrder());
    return runs;
  }

  static ObjectNode toJson(Row run) {
    ObjectNode node = Json.mapper().createObjectNode();
    node.put("run_id", (String) run.getAs("run_id"));
    node.put("source_format", (String) run.getAs("source_format"));
    node.put("status", (String) run.getAs("status"));
    node.put("started_at", formatTime(run.getAs("started_at")));
    node.put("finished_at", formatTime(run.getAs("finished_at")));
    ObjectNode labels = node.putObject("labels");
    labels(run).forEach(labels::put);
    for (String dimension : Labels.DIMENSIONS) {
      Object value = run.getAs(dimension);
      if (value != null) {
        node.putPOJO(dimension, value);
      }
    }
    node.put("tasks_accepted", (Long) run.getAs("tasks_accepted"));
    node.put("lines_rejected", (Long) run.getAs("lines_rejected"));
    node.put("step_metrics_rows", (Long) run.getAs("step_metrics_rows"));
    ArrayNode files = node.putArray("source_files");
    List<Row> sourceFiles = run.getList(run.fieldIndex("source_files"));
    for (Row file : sourceFiles) {
      files.addObject()
          .put("path", file.getString(0))
          .put("sha256", file.getString(1))
          .put("bytes", file.getLong(2));
    }
    return node;
  }

  private static Map<String, String> labels(Row run) {
    scala.collection.Map<String, String> map = run.getMap(run.fieldIndex("labels"));
    return new TreeMap<>(CollectionConverters.asJava(map));
  }

  private static String labelsText(Row run) {
    StringBuilder sb = new StringBuilder();
    labels(run).forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
    return sb.toString();
  }

  /** The source files' names (their folders are in --json): enough to recognise a run. */
  private static String sourcesText(Row run) {
    List<Row> files = run.getList(run.fieldIndex("source_files"));
    StringBuilder sb = new StringBuilder();
    for (Row file : files) {
      String path = file.getString(0);
      sb.append(sb.length() == 0 ? "" : ",").append(path.substring(path.lastIndexOf('/') + 1));
    }
    return sb.toString();
  }

  private static String formatTime(Object timestamp) {
    return timestamp == null ? null : ((Timestamp) timestamp).toInstant().toString();
  }
}
