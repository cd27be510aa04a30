package dev.benchlake.warehouse.cli;

import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.export.Export;
import dev.benchlake.warehouse.export.ExportFormat;
import dev.benchlake.warehouse.export.ExportRequest;
import dev.benchlake.warehouse.export.ExportTable;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code benchlake export}: one warehouse table as one CSV, JSON Lines or Parquet file (see {@link Export}). */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Export one warehouse table, committed runs only, as one CSV, JSON Lines or Parquet file: for pandas, "
          + "spreadsheets and other tools that cannot read Delta tables.",
      "Rows come out sorted (runs by start and id; tasks by run, step, client, seq). Timestamps are ISO-8601 UTC "
          + "with microseconds; integers (nanoseconds) are exact; doubles are the shortest text that reads back "
          + "exactly. CSV: null is an empty field, labels become one column per key (labels.KEY), source_files "
          + "holds JSON; JSON Lines: every column on every line, labels as an object; Parquet: the table's types, labels a "
          + "map, source_files a list, timestamps in microseconds UTC.",
      "The small tables (a few rows per run), and tasks while that table holds at most 4 MiB (~140,000 tasks), "
          + "are read with Delta Kernel and no Spark session; bigger tasks tables with Spark (so is any table "
          + "when --master or --conf asks for Spark): the same file either way."
    },
    footer = {"", "Example: benchlake export --warehouse wh --table tasks --where os=linux --columns run_id,latency_ns,ok "
        + "--out linux-tasks.csv",
      "Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input (unknown table or column, bad selector, "
          + "no warehouse)."})
public final class ExportCommand implements Callable<Integer>, Validated {
  private static final Logger LOG = LoggerFactory.getLogger(ExportCommand.class);

  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--table", paramLabel = "TABLE", required = true, description = ExportTable.NAMES + ".")
  String table;

  @Option(names = "--where", paramLabel = "SELECTOR",
      description = "Only rows of runs matching key=value[,key=value…] over labels and dimensions, e.g. os=linux.")
  String where;

  @Option(names = "--step", paramLabel = "S", description = "Only this step (repeatable; tasks and step_metrics).")
  List<String> steps = new ArrayList<>();

  @Option(names = "--columns", paramLabel = "A,B…", split = ",",
      description = "Only these columns, in this order (default: all of the table's).")
  List<String> columns = new ArrayList<>();

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "csv",
      description = "csv, jsonl (JSON Lines) or parquet (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--out", paramLabel = "FILE", required = true,
      description = "The file to write (replaced atomically when complete; folders are created), or - for stdout.")
  String out;

  @Mixin
  SparkOptions sparkOptions;

  /** Where {@code --out -} goes; the bytes are UTF-8 whatever the platform's encoding. */
  private final OutputStream stdout;

  public ExportCommand() {
    this(System.out);
  }

  /** An export whose {@code --out -} writes to {@code stdout} (tests, embedding callers). */
  public ExportCommand(OutputStream stdout) {
    this.stdout = stdout;
  }

  /** What {@link #validate} made of the options. */
  private ExportRequest request;

  /** The warehouse's form, the table, the selector, the columns' format, before anything is read. */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
    request = new ExportRequest(ExportTable.named(table), RunSelector.parse(where), steps, columns,
        ExportFormat.named(format));
  }

  @Override
  public List<Path> writes() {
    return out.equals("-") ? List.of() : Validated.local(Path.of(out));
  }

  @Override
  public Integer call() throws IOException {
    validate(Preflight.ALONE);
    Export.Lines lines;
    KernelWarehouse tables = sparkOptions.sparkRequested() ? null : warehouseOption.openWithoutSpark().requireExisting();
    if (tables != null && readWithKernel(request.table(), tables)) {
      lines = Export.lines(tables, request);
    } else {
      Warehouse warehouse = warehouseOption.open(sparkOptions.session("export")).requireExisting();
      lines = Export.lines(warehouse, request);
    }
    long rows;
    if (out.equals("-")) {
      rows = writeTo(lines, new FilterOutputStream(stdout) {
        @Override
        public void close() throws IOException {
          flush(); // stdout stays open
        }
      });
    } else {
      rows = writeAtomically(lines, Path.of(out));
    }
    LOG.info("exported {} row(s) of {} ({}) to {}", rows, request.table(), request.where(), out.equals("-") ? "stdout" : out);
    return ExitCode.OK;
  }

  /** Kernel for the small tables, and for tasks while that table is small ({@link ExportTable#smallEnoughForKernel}). */
  private static boolean readWithKernel(ExportTable table, KernelWarehouse tables) {
    return table.smallEnoughForKernel(table == ExportTable.TASKS ? tables.committedBytes(table.table()) : OptionalLong.empty());
  }

  private long writeTo(Export.Lines lines, OutputStream stream) throws IOException {
    try (OutputStream out = stream) {
      return Export.write(lines, request.format(), out);
    }
  }

  /** Into a temporary file beside {@code file}, then renamed: a failed export leaves no partial file. */
  private long writeAtomically(Export.Lines lines, Path file) throws IOException {
    Path absolute = file.toAbsolutePath();
    Files.createDirectories(absolute.getParent());
    // Not Files.createTempFile: its owner-only permissions would stay on the exported file.
    Path partial = absolute.resolveSibling("." + absolute.getFileName() + "." + UUID.randomUUID() + ".partial");
    try {
      long rows = writeTo(lines, Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
      Files.move(partial, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return rows;
    } finally {
      Files.deleteIfExists(partial);
    }
  }
}
