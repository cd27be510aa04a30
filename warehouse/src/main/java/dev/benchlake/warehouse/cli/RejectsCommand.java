package dev.benchlake.warehouse.cli;

import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import static org.apache.spark.sql.functions.col;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.TerminalText;
import dev.benchlake.core.Json;
import dev.benchlake.core.TextTable;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.rejects.RejectsSummary;
import dev.benchlake.warehouse.rejects.RejectsSummary.Example;
import dev.benchlake.warehouse.rejects.RejectsSummary.FileRejects;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake rejects}: the rejected lines of committed runs, counted by error type and by file. */
@Command(name = "rejects", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Show the lines ingest rejected (committed runs only): counts by error type and by file, and each file's "
          + "first " + RejectsSummary.EXAMPLES + " rejected lines (line number, type, reason, the raw text cut short).",
      "Rejects ingested by benchlake 0.1.0 have no error type: shown as " + RejectsSummary.NOT_RECORDED + ".",
      "It reads with Delta Kernel and starts no Spark session, unless --master or --conf asks for Spark."},
    footer = {"", "Exit codes: 0 ok (also when there are no rejects), 1 runtime failure, 2 bad input (no warehouse, "
        + "no such run)."})
public final class RejectsCommand implements Callable<Integer>, Validated {
  /** Characters of a raw line shown in the text output (--json gives the line as stored). */
  static final int RAW_CHARS = 80;

  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--run", paramLabel = "RUN_ID", description = "Only this run.")
  String run;

  @Option(names = "--json", description = "One JSON object instead of tables.")
  boolean json;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** The warehouse's form, before anything is read. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    RejectsSummary summary = sparkOptions.sparkRequested() ? onSpark() : withoutSpark();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(toJson(summary)));
    } else {
      printText(summary, out);
    }
    out.flush();
    return ExitCode.OK;
  }

  private RejectsSummary onSpark() {
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("rejects")).requireExisting();
    Dataset<Row> runs = warehouse.runs();
    if (run != null) {
      runs = runs.where(col(WarehouseSchema.RUN_ID).equalTo(run));
      if (runs.isEmpty()) {
        throw noSuchRun();
      }
    }
    return RejectsSummary.of(warehouse, runs);
  }

  /** The same summary read with Delta Kernel: rejects are a few lines per bad file, not a Spark job. */
  private RejectsSummary withoutSpark() {
    KernelWarehouse warehouse = warehouseOption.openWithoutSpark().requireExisting();
    List<Row> runs = warehouse.runs();
    if (run != null) {
      runs = runs.stream().filter(r -> run.equals(r.getAs(WarehouseSchema.RUN_ID))).toList();
      if (runs.isEmpty()) {
        throw noSuchRun();
      }
    }
    return RejectsSummary.of(warehouse.committedOnly(WarehouseSchema.Table.REJECTS, runs));
  }

  private BadInputException noSuchRun() {
    return new BadInputException("--run: no committed run '" + run + "' in " + warehouseOption.dir());
  }

  static ObjectNode toJson(RejectsSummary summary) {
    ObjectNode node = Json.mapper().createObjectNode();
    node.put("rejected_lines", summary.total());
    ObjectNode types = node.putObject("by_error_type");
    summary.byType().forEach(types::put);
    ArrayNode files = node.putArray("files");
    for (FileRejects file : summary.files()) {
      ObjectNode f = files.addObject();
      f.put("run_id", file.runId());
      f.put("source_file", file.sourceFile());
      f.put("rejected_lines", file.rejected());
      ObjectNode fileTypes = f.putObject("by_error_type");
      file.byType().forEach(fileTypes::put);
      ArrayNode examples = f.putArray("examples");
      for (Example e : file.examples()) {
        examples.addObject().put("line_no", e.lineNo()).put("error_type", e.errorType()).put("column", e.column())
            .put("reason", e.reason()).put("raw_line", e.rawLine());
      }
    }
    return node;
  }

  private static void printText(RejectsSummary summary, PrintWriter out) {
    if (summary.total() == 0) {
      out.println("no rejected lines");
      return;
    }
    out.println(summary.total() + " rejected line" + (summary.total() == 1 ? "" : "s") + " in "
        + summary.files().size() + " file" + (summary.files().size() == 1 ? "" : "s"));
    out.println();
    TextTable types = new TextTable("ERROR_TYPE", "LINES");
    summary.byType().forEach((type, n) -> types.row(type, n));
    out.print(types.render());
    out.println();
    TextTable files = new TextTable("RUN_ID", "FILE", "LINES", "ERROR_TYPES");
    for (FileRejects file : summary.files()) {
      StringBuilder t = new StringBuilder();
      file.byType().forEach((type, n) -> t.append(t.length() == 0 ? "" : ",").append(type).append('=').append(n));
      files.row(file.runId(), file.sourceFile(), file.rejected(), t.toString());
    }
    out.print(files.render());
    for (FileRejects file : summary.files()) {
      out.println();
      out.println(TerminalText.escape(file.sourceFile() + " (run " + file.runId() + "), first " + file.examples().size()
          + ":"));
      for (Example e : file.examples()) {
        out.println(TerminalText.escape("  line " + e.lineNo() + " [" + (e.errorType() == null
            ? RejectsSummary.NOT_RECORDED : e.errorType()) + (e.column() == null ? "" : " " + e.column()) + "] "
            + e.reason() + ": ") + shown(e.rawLine()));
      }
    }
  }

  /** The raw line on one terminal line: control characters escaped ({@link TerminalText}), cut at {@link #RAW_CHARS}. */
  static String shown(String raw) {
    StringBuilder cut = new StringBuilder();
    raw.codePoints().limit(RAW_CHARS).forEach(cut::appendCodePoint);
    StringBuilder sb = new StringBuilder("'").append(TerminalText.escape(cut)).append('\'');
    if (raw.codePointCount(0, raw.length()) > RAW_CHARS) {
      sb.append("… (").append(raw.length()).append(" characters)");
    }
    return sb.toString();
  }
}
