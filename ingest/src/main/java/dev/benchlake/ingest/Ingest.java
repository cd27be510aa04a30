package dev.benchlake.ingest;

import dev.benchlake.core.Sha256;
import static org.apache.spark.sql.functions.col;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.IngestResult.FileAccount;
import dev.benchlake.ingest.IngestResult.Outcome;
import dev.benchlake.ingest.IngestResult.RunOutcome;
import dev.benchlake.ingest.format.SourceFormat;
import dev.benchlake.ingest.format.SourcePlan;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.parse.ChunkJob;
import dev.benchlake.ingest.parse.ParsedRows;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.ingest.source.FileScanner;
import dev.benchlake.ingest.source.ScannedFile;
import dev.benchlake.warehouse.RunLocks;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseWriter;
import dev.benchlake.warehouse.WarehouseWriter.CommitListener;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code benchlake ingest} as a Java API: result files in, committed runs in a warehouse out.
 *
 * <ol>
 *   <li>Resolve the inputs and their formats; each format groups its files into sources (runs).
 *   <li>Read every file once on the driver: its SHA-256 (the idempotency key) and the line numbers
 *       at which its byte-range chunks start.
 *   <li>Under per-source locks, skip sources whose content is already committed (unless
 *       {@code replace}).
 *   <li>The one pass: parse all chunks of all sources in one Spark job, which writes the tasks as
 *       uncommitted data files of the tasks table ({@code StagedAppend}) and brings back everything
 *       else (task counts, metrics, rejects, facts) beside them, cached as a small table; count per
 *       file and refuse bad input (a file that is all rejects, a source with no results, a
 *       companion file that disagrees): then the written task files are deleted, never having
 *       been committed.
 *   <li>Commit with {@link WarehouseWriter}: data tables first (the staged tasks' commit among
 *       them), {@code runs} last. Tasks stream from the files into the table's files and are never
 *       cached, so a multi-GB log needs no memory to match.
 * </ol>
 *
 * <p>Nothing is collected to the driver but counts, facts and one row per run.
 */
public final class Ingest {
  private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);
  private static final String LOADGEN = "loadgen";

  private Ingest() {}

  public static IngestResult run(SparkSession spark, Warehouse warehouse, IngestRequest request) throws IOException {
    return run(spark, warehouse, request, CommitListener.NONE);
  }

  /** @param listener told about each table commit (progress, fault injection in tests) */
  public static IngestResult run(SparkSession spark, Warehouse warehouse, IngestRequest given, CommitListener listener)
      throws IOException {
    // Inputs are read on the session's Hadoop configuration (hdfs://, s3a://, --conf spark.hadoop.*).
    IngestRequest request = given.withStorage(Storage.on(spark.sparkContext().hadoopConfiguration()));
    // First, before any work: a warehouse of an earlier format is upgraded only on request.
    WarehouseFormat.requireWritable(warehouse);
    request.pathLabels().checkAgainst(request.labels());
    List<SourcePlan> plans = new ArrayList<>();
    List<IngestResult.NotResult> notResults = new ArrayList<>();
    for (Map.Entry<SourceFormat, List<Path>> entry : InputResolver.resolve(request).entrySet()) {
      SourceFormat.Planned planned = entry.getKey().planAll(entry.getValue(), request);
      for (SourcePlan plan : planned.sources()) {
        plans.add(plan.withLabels(request.pathLabels().labels(plan.files().get(0).path())));
      }
      notResults.addAll(planned.notResults());
    }
    List<Source> sources = scan(plans, request);
    List<String> lockNames = new ArrayList<>();
    for (Source source : sources) {
      lockNames.add("key:" + source.key);
      if (source.plan.runId() != null) {
        lockNames.add("run:" + source.plan.runId());
      }
    }
    try (RunLocks locks = RunLocks.acquire(warehouse, lockNames)) {
      IngestResult result = ingestLocked(spark, warehouse, request, listener, sources);
      return new IngestResult(result.runs(), result.files(), notResults);
    }
  }

  /** A planned source with its scanned files and content key. */
  static final class Source {
    final SourcePlan plan;
    final List<ScannedFile> files;
    final String key;
    /** The run id of a single-run source; null for a multi-run source until parsed. */
    final String runId;
    final List<String> replacedRunIds = new ArrayList<>();

    Source(SourcePlan plan, List<ScannedFile> files, String key) {
      this.plan = plan;
      this.files = files;
      this.key = key;
      this.runId = plan.multiRun() ? null : plan.runId() != null ? plan.runId() : plan.format() + "-" + key.substring(0, 16);
    }

    String name() {
      return files.get(0).path();
    }
  }

  private static List<Source> scan(List<SourcePlan> plans, IngestRequest request) throws IOException {
    List<Source> sources = new ArrayList<>();
    Map<String, Source> byKey = new HashMap<>();
    for (SourcePlan plan : plans) {
      List<ScannedFile> scanned = new ArrayList<>();
      TreeSet<String> hashes = new TreeSet<>();
      for (PlannedFile file : plan.files()) {
        ScannedFile s = FileScanner.scan(request.storage(), file.path(), request.chunkBytes(), file.splittable());
        scanned.add(s);
        hashes.add(s.sha256());
      }
      String key = Sha256.hex(plan.format() + "\n" + plan.keyExtra() + "\n" + String.join("\n", hashes));
      Source source = new Source(plan, scanned, key);
      Source same = byKey.putIfAbsent(key, source);
      if (same != null) {
        request.messages().accept(source.name() + ": same content as " + same.name() + ", skipped");
        continue;
      }
      sources.add(source);
    }
    return sources;
  }

  private static IngestResult ingestLocked(SparkSession spark, Warehouse warehouse, IngestRequest request,
      CommitListener listener, List<Source> sources) {
    List<RunOutcome> outcomes = new ArrayList<>();
    List<Source> toWrite = new ArrayList<>();
    Map<String, List<Row>> committed = committedRuns(warehouse, sources);
    for (Source source : sources) {
      List<Row> sameContent = committed.getOrDefault("key:" + source.key, List.of());
      List<Row> sameRun = source.plan.runId() == null ? List.of() : committed.getOrDefault("run:" + source.plan.runId(), List.of());
      if (!sameContent.isEmpty() && !request.replace()) {
        for (Row run : sameContent) {
          request.messages().accept(source.name() + ": already ingested as run " + run.getString(0) + ", nothing added");
          outcomes.add(new RunOutcome(run.getString(0), source.plan.format(), Outcome.ALREADY_INGESTED,
              run.getLong(2), run.getLong(3), run.getLong(4), source.files.stream().map(ScannedFile::path).toList()));
        }
        continue;
      }
      if (!sameRun.isEmpty() && !request.replace()) {
        throw new BadInputException(source.name() + ": run " + source.plan.runId()
            + " is already in the warehouse from other content (the run changed since it was ingested,"
            + " e.g. it was still going); add --replace to replace it");
      }
      sameContent.forEach(r -> source.replacedRunIds.add(r.getString(0)));
      sameRun.forEach(r -> source.replacedRunIds.add(r.getString(0)));
      toWrite.add(source);
    }
    if (toWrite.isEmpty()) {
      return new IngestResult(outcomes, List.of());
    }
    ParsedIngest parsed = ParsedIngest.parse(spark, warehouse, toWrite, request.labels());
    try {
      List<FileAccount> accounts = parsed.accountAndValidate();
      outcomes.addAll(commit(warehouse, request, listener, parsed));
      return new IngestResult(outcomes, accounts);
    } finally {
      // Refused (or failed before the tasks' commit): the written tasks were never committed.
      parsed.release();
    }
  }

  /** Committed runs that share a content key or a run id with the sources: "key:K"/"run:R" → rows. */
  private static Map<String, List<Row>> committedRuns(Warehouse warehouse, List<Source> sources) {
    Map<String, List<Row>> out = new HashMap<>();
    if (!warehouse.exists()) {
      return out;
    }
    List<String> keys = sources.stream().map(s -> s.key).toList();
    List<String> ids = sources.stream().map(s -> s.plan.runId()).filter(id -> id != null).toList();
    List<Row> rows = warehouse.runs()
        .where(col(WarehouseSchema.SOURCE_KEY).isin(keys.toArray()).or(col(WarehouseSchema.RUN_ID).isin(ids.toArray())))
        .select(WarehouseSchema.RUN_ID, WarehouseSchema.SOURCE_KEY, "tasks_accepted", "step_metrics_rows", "lines_rejected")
        .collectAsList();
    for (Row row : rows) {
      out.computeIfAbsent("key:" + row.getString(1), k -> new ArrayList<>()).add(row);
      out.computeIfAbsent("run:" + row.getString(0), k -> new ArrayList<>()).add(row);
    }
    return out;
  }

  private static List<RunOutcome> commit(Warehouse warehouse, IngestRequest request, CommitListener listener,
      ParsedIngest parsed) {
    WarehouseWriter writer = new WarehouseWriter(warehouse, listener);
    List<String> replaced = new ArrayList<>();
    List<String> runIds = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>();
    for (Source source : parsed.sources) {
      replaced.addAll(source.replacedRunIds);
      runIds.addAll(parsed.runIdsOf(source));
      keys.add(source.key);
    }
    long txnVersion = WarehouseWriter.FIRST_VERSION;
    if (!replaced.isEmpty()) {
      writer.deleteRuns(replaced);
      txnVersion = System.currentTimeMillis();
    }
    if (writer.hasRowsOf(runIds)) {
      // Left by an ingest killed before its commit point: invisible, but the commit below would
      // make them visible. We hold the locks of these runs, so no live ingest is writing them.
      LOG.info("removing rows of runs {} left by an interrupted ingest", runIds);
      writer.deleteOrphans(runIds);
      txnVersion = System.currentTimeMillis();
    }
    String batchKey = Sha256.hex(String.join("\n", keys));
    writer.append(batchKey, parsed.batch(), txnVersion);
    List<RunOutcome> outcomes = parsed.outcomes(replaced.isEmpty() ? Outcome.ADDED : Outcome.REPLACED);
    for (RunOutcome outcome : outcomes) {
      request.messages().accept("run " + outcome.runId() + " (" + outcome.format() + "): "
          + (outcome.outcome() == Outcome.REPLACED ? "replaced, " : "added, ")
          + outcome.tasks() + " tasks, " + outcome.stepMetrics() + " step metrics, " + outcome.linesRejected() + " lines rejected");
    }
    return outcomes;
  }

  /** Turns the sources into chunk jobs: one per chunk of every file. */
  static List<ChunkJob> chunkJobs(List<Source> sources) {
    List<ChunkJob> jobs = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      Source source = sources.get(s);
      for (int f = 0; f < source.files.size(); f++) {
        PlannedFile planned = source.plan.files().get(f);
        ScannedFile scanned = source.files.get(f);
        for (ScannedFile.Chunk chunk : scanned.chunks()) {
          jobs.add(new ChunkJob(s, f, scanned.path(), chunk, planned.lineParser(), planned.documentParser(), false));
        }
      }
    }
    return jobs;
  }

  /** What one chunk's Spark task makes of it, on the executor. */
  @FunctionalInterface
  interface ChunkFunction extends java.io.Serializable {
    Iterator<Row> rows(ChunkJob job, Storage files);
  }

  /** The chunks as one Spark partition each, turned into rows by {@code parse} on the executors. */
  static JavaRDD<Row> chunkRdd(SparkSession spark, List<ChunkJob> jobs, ChunkFunction parse) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    // Executors open the files on the driver's Hadoop configuration (file systems, credentials).
    Broadcast<SerializableConfiguration> conf = jsc.broadcast(
        new SerializableConfiguration(spark.sparkContext().hadoopConfiguration()));
    return jsc.parallelize(jobs, Math.max(1, jobs.size()))
        .flatMap(job -> parse.rows(job, Storage.on(conf.value().value())));
  }

  /** The first rejected line of a file, for the message of a file that is all rejects. */
  static String firstReject(Dataset<Row> rows, int source, int file) {
    List<Row> first = rows.where(col(ParsedRows.KIND).equalTo(ParsedRows.REJECT)
            .and(col(ParsedRows.SOURCE).equalTo(source)).and(col(ParsedRows.FILE).equalTo(file)))
        .orderBy(ParsedRows.LINE_NO).limit(1).select(ParsedRows.LINE_NO, "raw_line", "reason").collectAsList();
    if (first.isEmpty()) {
      return "";
    }
    Row r = first.get(0);
    return "line " + r.getLong(0) + " " + RawLines.quote(r.getString(1), 60) + ": " + r.getString(2);
  }

  static StorageLevel cacheLevel() {
    return StorageLevel.MEMORY_AND_DISK();
  }
}
