package dev.benchlake.ingest.cli;

import dev.benchlake.ingest.format.CsvMapping;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.warehouse.cli.WarehouseOption;
import dev.benchlake.core.Labels;
import dev.benchlake.core.TerminalText;
import dev.benchlake.core.cli.LabelOptions;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.InputCheck;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult;
import dev.benchlake.ingest.PathLabels;
import dev.benchlake.ingest.format.Formats;
import dev.benchlake.ingest.format.NotResult;
import dev.benchlake.warehouse.spark.SparkOptions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.fs.Storage;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.write.WarehouseWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code benchlake ingest}: result files into the warehouse (see {@link Ingest}). */
@Command(name = "ingest", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Ingest benchmark results into a warehouse: loadgen run directories, TestPostgresqlPerf details, "
          + "pgbench per-transaction and aggregate logs, pgbench and sysbench text output, mytools result trees "
          + "(x.<dbms><version>_<build>.<config>.pk<0|1>/ folders), any CSV through a mapping.",
      "Every line is accounted for (accepted, or kept in 'rejects' with its line number and a reason); "
          + "ingesting the same content again adds nothing; a killed ingest leaves no partial run."
    },
    footer = {"", "Prints the run ids it added on stdout and 'FILE: accepted N, rejected M' per file on stderr, "
        + "then 'FILE: not a result (WHAT), not read' for each file under a folder that is not a result (a README, "
        + "a chart, a mytools tree's vmstat captures) and 'PATH: hidden folder (N files), not read: name it to ingest it' "
        + "for each hidden file or folder (a name starting with '.'), and 'PATH: a link to X, which holds it (a loop); not "
        + "followed' for each symbolic link not followed (every real file is read once, under its first name: named, "
        + "then a folder's own entries, then links); a file named explicitly must be a result.",
      "While parsing, the bytes and lines done, the rate and the time left: a live line on a terminal, else a line on "
        + "stderr every 5 s.",
      "Exit codes: 0 ok (also when everything was already ingested), 1 runtime failure, 2 bad input (nothing written; "
          + "also a damaged warehouse, see 'benchlake verify', and one on a read-only folder)."})
public final class IngestCommand implements Callable<Integer>, Validated {
  @Mixin
  WarehouseOption warehouseOption;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = IngestRequest.AUTO,
      description = "auto (default: sniff each file and say what was chosen), loadgen, mytools, testpgperf, pgbench-log, "
          + "pgbench-agg, pgbench, sysbench or csv.")
  String format;

  @Option(names = "--mapping", paramLabel = "FILE",
      description = "CSV mapping (JSON or YAML): which column is run / step / latency / timestamp / ok / error, "
          + "constant labels, or a wide step x run table. A local path or a URI (hdfs://, s3a://, file:).")
  String mapping;

  @Option(names = "--step", paramLabel = "NAME",
      description = "Step name for sources that do not name it (sysbench: default the file name's stem; pgbench logs: default 'pgbench').")
  String step;

  @Mixin
  LabelOptions labelOptions;

  @Option(names = "--label-from-path", paramLabel = "REGEX",
      description = "Labels from each run's path (repeatable, any format): every named group of this regex, "
          + "found in the absolute path of the run's first file, is a label, e.g. 'x\\.pg(?<db_major>\\d\\d)'. "
          + "A path it does not match is an error; a key also given by --label is an error. The regex runs on RE2 "
          + "(time linear in the path, whatever the regex): Java's syntax without backreferences (\\1, \\k<name>), "
          + "lookahead or lookbehind ((?=, (?!, (?<=, (?<!), atomic groups ((?>), possessive quantifiers (a*+) and "
          + "class intersections ([a-z&&[^x]]), which are refused by name.")
  List<String> labelFromPath = new ArrayList<>();

  @Option(names = "--label-from-path-optional",
      description = "A path that a --label-from-path regex does not match gets none of its labels (instead of an error).")
  boolean labelFromPathOptional;

  @Option(names = "--replace", description = "Re-ingest sources already in the warehouse, replacing their runs; and replace "
      + "the runs that hold files of a mytools folder from other content (0.3.0 stored one run per sb.o file; a folder is "
      + "one run now), which an ingest without it refuses; it also adds a mytools folder's machine figures (sb.met, or "
      + "where a step has none its sb.vm and sb.io) to the run of a folder ingested before they were read.")
  boolean replace;

  @Option(names = "--chunk-size", paramLabel = "BYTES", hidden = true,
      description = "Bytes per parallel parsing chunk of large files (default 32 MiB).")
  long chunkBytes = IngestRequest.DEFAULT_CHUNK_BYTES;

  @Parameters(paramLabel = "PATH", arity = "1..*",
      description = "Files or directories to ingest: local paths or URIs (hdfs://NAMENODE/DIR, s3a://BUCKET/DIR, file:/DIR).")
  List<String> paths;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  /** Told about each commit instead of the progress lines: how a test fills the disk at one commit. */
  WarehouseWriter.CommitListener commits;

  /** What {@link #validate} made of the options. */
  private PathLabels pathLabels;
  private TreeMap<String, String> labels;

  /**
   * Every option before anything is read or started: the format's name, the labels and the
   * --label-from-path regexes (a bad regex or a key given twice), each input's form (no credentials
   * in a URI) and, when local, that it is there (or that an earlier line of the batch writes it),
   * and a local --mapping's content. What each file holds is told after ({@link InputCheck}).
   */
  @Override
  public void validate(Preflight before) {
    warehouseOption.validate();
    if (!format.equals(IngestRequest.AUTO)) {
      Formats.named(format);
    }
    pathLabels = PathLabels.of(labelFromPath, labelFromPathOptional);
    labels = new TreeMap<>(labelOptions.labels());
    pathLabels.checkAgainst(labels);
    for (String given : paths) {
      requireThere(given, before, "no such file or directory");
    }
    if (mapping != null && requireThere(mapping, before, "mapping file not found")) {
      try {
        CsvMapping.read(mapping, Storage.on(new Configuration()));
      } catch (java.io.IOException e) {
        throw new BadInputException(mapping + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * A local input that is not there (nor written by an earlier line of a batch) is bad input;
   * another file system's is looked at when it is read.
   *
   * @return whether it is a local file there now
   */
  private static boolean requireThere(String given, Preflight before, String missing) {
    org.apache.hadoop.fs.Path location = Storage.location(given);
    if (!Storage.isLocal(location)) {
      return false;
    }
    java.nio.file.Path local = java.nio.file.Path.of(location.toUri().getPath());
    if (java.nio.file.Files.exists(local)) {
      return true;
    }
    if (!before.writtenBefore(local)) {
      throw new BadInputException(given + ": " + missing);
    }
    return false;
  }

  @Override
  public List<java.nio.file.Path> writes() {
    return warehouseOption.localDir().map(List::of).orElse(List.of());
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter out = spec.commandLine().getOut();
    IngestRequest request = new IngestRequest(paths, format, mapping, step, labels, replace,
        chunkBytes, message -> {
          err.println(TerminalText.escape(message));
          err.flush();
        }, pathLabels, null, System.console() != null ? liveLine(err) : null);
    // Before Spark starts (a second, not Spark's start): the warehouse whole, writable and of this
    // build's format, and every input there with a format; Ingest.run resolves them again.
    Configuration hadoop = sparkOptions.hadoopConf();
    warehouseOption.openWholeForWriting(sparkOptions);
    WarehouseFormat.requireWritable(warehouseOption.dir(), hadoop);
    InputCheck.check(request.withStorage(Storage.on(hadoop)));
    Warehouse warehouse = warehouseOption.open(sparkOptions.session("ingest"));
    IngestResult result = Ingest.run(warehouse.spark(), warehouse, request, commits != null ? commits : progress(err));
    // A path is data (a file may be named with a newline or an escape sequence): one escaped line each.
    for (IngestResult.FileAccount file : result.files()) {
      err.println(TerminalText.escape(file.path() + ": accepted " + file.accepted() + ", rejected " + file.rejected()));
    }
    for (NotResult file : result.notResults()) {
      err.println(TerminalText.escape(file.line()));
    }
    if (result.filesNotRead() > 0) {
      long n = result.filesNotRead();
      err.println(n + " file" + (n == 1 ? " was" : "s were") + " not read (listed above)");
    }
    for (IngestResult.RunOutcome run : result.runs()) {
      if (run.outcome() != IngestResult.Outcome.ALREADY_INGESTED) {
        out.println(TerminalText.escape(run.runId()));
      }
    }
    if (!result.changedWarehouse()) {
      err.println("already ingested, nothing added");
    }
    out.flush();
    err.flush();
    return ExitCode.OK;
  }

  /**
   * A line redrawn in place on a terminal (each call replaces it; null ends it with a line break): its
   * {@code \r} is benchlake's own, so it goes to the writer under the escaping one, and the line's
   * text is escaped here.
   */
  private static java.util.function.Consumer<String> liveLine(PrintWriter escaping) {
    PrintWriter err = TerminalText.raw(escaping);
    int[] width = {0};
    return line -> {
      if (line == null) {
        if (width[0] > 0) {
          err.println();
        }
        width[0] = 0;
      } else {
        String shown = TerminalText.escape(line);
        err.print("\r" + shown + " ".repeat(Math.max(0, width[0] - shown.length())));
        width[0] = shown.length();
      }
      err.flush();
    };
  }

  /** Says which table is being written when stderr is a terminal (Spark's progress bar shows the rest). */
  private static WarehouseWriter.CommitListener progress(PrintWriter err) {
    if (System.console() == null) {
      return WarehouseWriter.CommitListener.NONE;
    }
    return new WarehouseWriter.CommitListener() {
      @Override
      public void beforeCommit(WarehouseSchema.Table table) {
        err.println("writing " + table.dirName() + (table == WarehouseSchema.Table.RUNS ? " (the commit point)" : "") + "…");
        err.flush();
      }
    };
  }
}
