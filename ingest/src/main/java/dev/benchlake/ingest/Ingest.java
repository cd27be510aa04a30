package dev.benchlake.ingest;

import dev.benchlake.core.Sha256;
import static org.apache.spark.sql.functions.col;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.IngestResult.FileAccount;
import dev.benchlake.ingest.IngestResult.Outcome;
import dev.benchlake.ingest.IngestResult.RunOutcome;
import dev.benchlake.ingest.format.NotResult;
import dev.benchlake.ingest.format.SourceFormat;
import dev.benchlake.ingest.format.SourcePlan;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.source.FileScanner;
import dev.benchlake.ingest.source.ScannedFile;
import dev.benchlake.warehouse.write.RunLocks;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.write.WarehouseWriter;
import dev.benchlake.warehouse.write.WarehouseWriter.CommitListener;
import dev.benchlake.warehouse.fs.Storage;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

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
  private static final String LOADGEN = "loadgen";
  // runs' columns (WarehouseSchema.RUNS) read by the search for earlier readings of a folder.
  private static final String SOURCE_FORMAT = "source_format";
  private static final String SOURCE_FILES = "source_files";
  private static final String SHA256 = "sha256";

  private Ingest() {}

  public static IngestResult run(SparkSession spark, Warehouse warehouse, IngestRequest request) throws IOException {
    return run(spark, warehouse, request, CommitListener.NONE);
  }

  /** @param listener told about each table commit (progress, fault injection in tests) */
  public static IngestResult run(SparkSession spark, Warehouse warehouse, IngestRequest given, CommitListener listener)
      throws IOException {
    // Inputs are read on the session's Hadoop configuration (hdfs://, s3a://, --conf spark.hadoop.*).
    IngestRequest request = given.withStorage(Storage.on(spark.sparkContext().hadoopConfiguration()));
    // First, before any work: a warehouse of an earlier format is upgraded only on request, and a
    // damaged one is not written to (a new version would hide the damage, a lost table's log would
    // start afresh and orphan its rows). The command checked both before Spark started; this is
    // for every other caller (the quickstart, the studies).
    WarehouseFormat.requireWritable(warehouse);
    KernelWarehouse.of(warehouse).requireWhole();
    request.pathLabels().checkAgainst(request.labels());
    List<SourcePlan> plans = new ArrayList<>();
    List<NotResult> notResults = new ArrayList<>();
    InputResolver.Resolved resolved = InputResolver.resolve(request);
    notResults.addAll(resolved.notRead());
    for (Map.Entry<SourceFormat, List<Path>> entry : resolved.byFormat().entrySet()) {
      SourceFormat.Planned planned = entry.getKey().planAll(entry.getValue(), request.planContext());
      for (SourcePlan plan : planned.sources()) {
        plans.add(plan.withLabels(request.pathLabels().labels(plan.files().get(0).path())));
      }
      notResults.addAll(planned.notResults());
    }
    List<IngestSource> sources = scan(plans, request);
    List<String> lockNames = new ArrayList<>();
    for (IngestSource source : sources) {
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

  private static List<IngestSource> scan(List<SourcePlan> plans, IngestRequest request) throws IOException {
    List<IngestSource> sources = new ArrayList<>();
    Map<String, IngestSource> byKey = new HashMap<>();
    for (SourcePlan plan : plans) {
      List<ScannedFile> scanned = new ArrayList<>();
      TreeSet<String> hashes = new TreeSet<>();
      for (PlannedFile file : plan.files()) {
        ScannedFile s = FileScanner.scan(request.storage(), file.path(), request.chunkBytes(), file.splittable());
        scanned.add(s);
        if (file.role() != SourcePlan.Role.COMPANION) {
          hashes.add(s.sha256());
        }
      }
      String key = Sha256.hex(plan.format() + "\n" + plan.keyExtra() + "\n" + String.join("\n", hashes));
      IngestSource source = new IngestSource(plan, scanned, key);
      IngestSource same = byKey.putIfAbsent(key, source);
      if (same != null) {
        request.messages().accept(source.name() + ": same content as " + same.name() + ", skipped");
        continue;
      }
      sources.add(source);
    }
    return sources;
  }

  private static IngestResult ingestLocked(SparkSession spark, Warehouse warehouse, IngestRequest request,
      CommitListener listener, List<IngestSource> sources) {
    List<RunOutcome> outcomes = new ArrayList<>();
    List<IngestSource> toWrite = new ArrayList<>();
    Map<String, List<Row>> committed = committedRuns(warehouse, sources);
    Map<IngestSource, Set<String>> earlier = earlierReadings(warehouse, sources);
    List<IngestSource> refused = new ArrayList<>();
    for (IngestSource source : sources) {
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
      Set<String> older = earlier.getOrDefault(source, Set.of());
      if (!older.isEmpty() && !request.replace()) {
        refused.add(source);
        continue;
      }
      sameContent.forEach(r -> source.replacedRunIds.add(r.getString(0)));
      sameRun.forEach(r -> source.replacedRunIds.add(r.getString(0)));
      older.forEach(source.replacedRunIds::add);
      toWrite.add(source);
    }
    if (!refused.isEmpty()) {
      IngestSource first = refused.get(0);
      int count = earlier.get(first).size();
      throw new BadInputException(first.name() + ": " + count + " run" + (count == 1 ? "" : "s") + " in the warehouse"
          + " already hold" + (count == 1 ? "s" : "") + " files of this folder, from other content (an earlier release"
          + " stored a " + first.plan.format() + " folder as one run per output file; or the folder changed since it"
          + " was ingested)" + (refused.size() > 1 ? ", and so do runs of " + (refused.size() - 1) + " more folder"
          + (refused.size() == 2 ? "" : "s") : "") + "; add --replace to replace them by one run per folder");
    }
    if (toWrite.isEmpty()) {
      return new IngestResult(outcomes, List.of());
    }
    IngestPass parsed = IngestPass.parse(spark, warehouse, toWrite, request);
    try {
      List<FileAccount> accounts = parsed.accountAndValidate();
      outcomes.addAll(commit(warehouse, request, listener, parsed));
      return new IngestResult(outcomes, accounts);
    } finally {
      // Refused (or failed before the tasks' commit): the written tasks were never committed.
      parsed.release();
    }
  }

  /**
   * The committed runs that are earlier readings of the folder sources (see
   * {@link SourcePlan#folder}): of the same format, of another content key, holding one of the
   * source's data files (by SHA-256, wherever the files were). By source; none for other sources.
   */
  private static Map<IngestSource, Set<String>> earlierReadings(Warehouse warehouse, List<IngestSource> sources) {
    Map<String, List<IngestSource>> byHash = new HashMap<>();
    for (IngestSource source : sources) {
      if (source.plan.folder() != null) {
        source.dataHashes().forEach(h -> byHash.computeIfAbsent(h, x -> new ArrayList<>()).add(source));
      }
    }
    Map<IngestSource, Set<String>> out = new HashMap<>();
    if (byHash.isEmpty() || !warehouse.exists()) {
      return out;
    }
    Object[] formats = sources.stream().filter(s -> s.plan.folder() != null).map(s -> s.plan.format()).distinct().toArray();
    Object[] keys = sources.stream().map(s -> s.key).toArray();
    Column holdsOne = functions.exists(col(SOURCE_FILES), f -> f.getField(SHA256).isin(byHash.keySet().toArray()));
    List<Row> rows = warehouse.runs()
        .where(col(SOURCE_FORMAT).isin(formats).and(functions.not(col(WarehouseSchema.SOURCE_KEY).isin(keys))).and(holdsOne))
        .select(col(WarehouseSchema.RUN_ID), col(SOURCE_FORMAT), col(SOURCE_FILES).getField(SHA256))
        .orderBy(WarehouseSchema.RUN_ID)
        .collectAsList();
    for (Row row : rows) {
      for (String hash : row.<String>getList(2)) {
        for (IngestSource source : byHash.getOrDefault(hash, List.of())) {
          if (source.plan.format().equals(row.getString(1))) {
            out.computeIfAbsent(source, x -> new TreeSet<>()).add(row.getString(0));
          }
        }
      }
    }
    return out;
  }

  /** Committed runs that share a content key or a run id with the sources: "key:K"/"run:R" → rows. */
  private static Map<String, List<Row>> committedRuns(Warehouse warehouse, List<IngestSource> sources) {
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
      IngestPass parsed) {
    WarehouseWriter writer = new WarehouseWriter(warehouse, listener);
    // Distinct: two sources may replace one run (an earlier reading that holds files of both).
    List<String> replaced = new ArrayList<>();
    List<String> runIds = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>();
    for (IngestSource source : parsed.sources) {
      source.replacedRunIds.stream().filter(id -> !replaced.contains(id)).forEach(replaced::add);
      runIds.addAll(parsed.runIdsOf(source));
      keys.add(source.key);
    }
    String batchKey = Sha256.hex(String.join("\n", keys));
    // The replaced runs and the rows of killed ingests of these runs go, then the batch lands.
    writer.commit(batchKey, parsed.batch(), runIds, replaced);
    List<RunOutcome> outcomes = parsed.outcomes(replaced.isEmpty() ? Outcome.ADDED : Outcome.REPLACED);
    for (RunOutcome outcome : outcomes) {
      request.messages().accept("run " + outcome.runId() + " (" + outcome.format() + "): "
          + (outcome.outcome() == Outcome.REPLACED ? "replaced, " : "added, ")
          + outcome.tasks() + " tasks, " + outcome.stepMetrics() + " step metrics, " + outcome.linesRejected() + " lines rejected");
    }
    return outcomes;
  }
}
