package dev.benchlake.ingest;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.timestamp_micros;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.benchlake.core.BenchlakeVersion;
import dev.benchlake.core.Json;
import dev.benchlake.core.Labels;
import dev.benchlake.core.Sha256;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.Accounting.FileCounts;
import dev.benchlake.ingest.Accounting.PartStats;
import dev.benchlake.ingest.IngestResult.FileAccount;
import dev.benchlake.ingest.IngestResult.Outcome;
import dev.benchlake.ingest.IngestResult.RunOutcome;
import dev.benchlake.ingest.format.SourcePlan;
import dev.benchlake.ingest.parse.ChunkAccounts;
import dev.benchlake.ingest.parse.ChunkJob;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.parse.ChunkParsing;
import dev.benchlake.ingest.parse.ParsedRows;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.ingest.source.ScannedFile;
import dev.benchlake.warehouse.fs.Storage;
import dev.benchlake.warehouse.SchemaColumns;
import dev.benchlake.warehouse.write.StagedAppend;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.write.WarehouseWriter;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.SerializableConfiguration;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The one pass of an ingest over its sources (tasks staged, accounting cached), which owns them
 * and their {@link Accounting}, and everything derived from it: the chunk jobs, the per-file
 * accounting, the validation of bad input, the run ids of multi-run sources, and the rows of the
 * four tables. A source is the {@code s}-th of {@link #sources} here as in the pass's rows
 * ({@link ParsedRows#SOURCE}), its files by their index in it ({@link ParsedRows#FILE}).
 */
final class IngestPass {
  private static final String SEP = "\u0001";

  /**
   * Accounting rows brought back to the driver at most (estimated heap bytes): past it, chunks are
   * parsed a second time for their accounting. The system property {@value #BUDGET_PROPERTY}
   * changes it (tests take the second-parse path with a tiny one).
   */
  static final long ACCOUNTS_BUDGET_BYTES = 64L << 20;
  static final String BUDGET_PROPERTY = "benchlake.ingest.accounts-budget-bytes";

  final List<IngestSource> sources;
  final Dataset<Row> rows;
  /** The tasks, written by the one pass and not committed yet. */
  final StagedAppend stagedTasks;
  /** The rows of chunks parsed again for their accounting, cached while the ingest runs; or null. */
  private final Dataset<Row> reparsed;
  private final SparkSession spark;
  /** What the pass counted, per source: by run part, by file, and its facts. */
  private final Accounting accounting;
  private final Map<Integer, Long> transformedMetricCounts = new HashMap<>();
  private final Instant ingestedAt = Instant.now();
  /** {@code --label}s: they override what a source says. */
  private final Map<String, String> cliLabels;

  private IngestPass(SparkSession spark, List<IngestSource> sources, Dataset<Row> rows, Dataset<Row> reparsed,
      Accounting accounting, Map<String, String> cliLabels, StagedAppend stagedTasks) {
    this.stagedTasks = stagedTasks;
    this.spark = spark;
    this.cliLabels = cliLabels;
    this.sources = sources;
    this.rows = rows;
    this.reparsed = reparsed;
    this.accounting = accounting;
  }

  /**
   * The one pass: every chunk parsed once, in the Spark job that writes the tasks as uncommitted
   * data files of the tasks table ({@link StagedAppend}); the accounting comes back beside them
   * and is counted on the driver. Chunks whose accounting is too big to bring back are parsed
   * again for it alone (and counted on the executors). When no parser can give a task (sysbench,
   * summaries, aggregate logs), the pass writes nothing: there would be no tasks table to commit.
   */
  static IngestPass parse(SparkSession spark, Warehouse warehouse, List<IngestSource> sources, IngestRequest request) {
    Map<String, String> cliLabels = request.labels();
    List<ChunkJob> jobs = chunkJobs(sources);
    ChunkAccounts accounts = new ChunkAccounts(Long.getLong(BUDGET_PROPERTY, ACCOUNTS_BUDGET_BYTES));
    spark.sparkContext().register(accounts, "ingest accounting");
    Map<String, ScannedFile> scanned = new HashMap<>();
    sources.forEach(s -> s.files.forEach(f -> scanned.put(f.path(), f)));
    StagedAppend staged = null;
    try (ParseProgress progress = ParseProgress.start(spark.sparkContext(), jobs, scanned, request.messages(),
        request.liveProgress())) {
      CollectionAccumulator<ChunkAccounts.ChunkKey> done = progress.doneAccumulator();
      JavaRDD<Row> taskRows = chunkRdd(spark, jobs, (job, files) ->
          ParseProgress.reporting(job, ChunkParsing.tasksAndAccounts(job, files, accounts), done));
      if (jobs.stream().anyMatch(ChunkJob::yieldsTasks)) {
        Dataset<Row> tasks = spark.createDataFrame(taskRows, ParsedRows.TASK_SCHEMA)
            .select(SchemaColumns.select(WarehouseSchema.TASKS, Map.of(
                WarehouseSchema.RUN_ID, taskRunIdColumn(sources).as(WarehouseSchema.RUN_ID),
                WarehouseSchema.START_TS, timestamp_micros(col(ParsedRows.START_US)),
                WarehouseSchema.END_TS, timestamp_micros(col(ParsedRows.END_US)),
                WarehouseSchema.SOURCE_LINE, col(ParsedRows.LINE_NO))));
        staged = StagedAppend.write(warehouse, WarehouseSchema.Table.TASKS, tasks);
      } else if (taskRows.count() != 0) {
        throw new IllegalStateException("a parser that says it gives no tasks gave some");
      }
    }
    ChunkAccounts.Gathered gathered = accounts.value();
    Dataset<Row> rows = spark.createDataFrame(gathered.rows(), ParsedRows.SCHEMA);
    Accounting accounting = Accounting.of(gathered.rows());
    Dataset<Row> reparsed = null;
    if (!gathered.overflowed().isEmpty()) {
      java.util.Set<ChunkAccounts.ChunkKey> again = new java.util.HashSet<>(gathered.overflowed());
      List<ChunkJob> overflowed = jobs.stream().filter(j -> again.contains(ChunkAccounts.ChunkKey.of(j))).toList();
      reparsed = spark.createDataFrame(chunkRdd(spark, overflowed, ChunkParsing::rows), ParsedRows.SCHEMA)
          .persist(cacheLevel());
      accounting.merge(reparsed.javaRDD().aggregate(new Accounting(), Accounting::add, Accounting::merge));
      rows = rows.union(reparsed);
    }
    return new IngestPass(spark, sources, rows, reparsed, accounting, cliLabels, staged);
  }

  /** Drops what the ingest cached, and the staged tasks of an ingest that did not commit them. */
  void release() {
    if (reparsed != null) {
      reparsed.unpersist();
    }
    if (stagedTasks != null) {
      stagedTasks.discard();
    }
  }

  /**
   * The accounting of every file; refuses bad input before anything is written.
   *
   * @throws BadInputException for a file whose every data line was rejected, a source without
   *     results, or a source its format's check refuses
   * @throws IllegalStateException when the verdicts do not add up to a file's lines (a bug)
   */
  List<FileAccount> accountAndValidate() {
    List<FileAccount> accounts = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      IngestSource source = sources.get(s);
      long rejectedInSource = 0;
      for (int f = 0; f < source.files.size(); f++) {
        ScannedFile file = source.files.get(f);
        FileCounts count = accounting.of(s).file(f);
        long accepted = count.accepted();
        if (accepted + count.rejected != file.lines()) {
          throw new IllegalStateException(file.path() + ": " + file.lines() + " lines but " + accepted
              + " accepted and " + count.rejected + " rejected");
        }
        if (count.rejected > 0 && count.data == 0 && source.plan.files().get(f).role() == SourcePlan.Role.DATA) {
          throw new BadInputException(file.path() + ": every " + (count.metadata > 0 ? "data " : "") + "line was rejected ("
              + count.rejected + " of " + file.lines() + " lines), so it is not usable as " + source.plan.format()
              + "; first: " + firstReject(rows, s, f));
        }
        rejectedInSource += count.rejected;
        accounts.add(new FileAccount(file.path(), file.lines(), accepted, count.rejected));
      }
      Map<String, PartStats> sourceParts = accounting.of(s).parts;
      long tasks = sourceParts.values().stream().mapToLong(p -> p.tasks).sum();
      long failed = sourceParts.values().stream().mapToLong(p -> p.failedTasks).sum();
      long metrics = sourceParts.values().stream().mapToLong(p -> p.metrics).sum();
      // A loadgen run killed before its first task is still a run (its manifest says what ran).
      if (tasks == 0 && metrics == 0 && !source.plan.format().equals("loadgen")) {
        throw new BadInputException(source.name() + ": no results in it (only headers, comments or blank lines)"
            + " for format " + source.plan.format());
      }
      source.plan.check().accept(new SourcePlan.SourceStats(tasks, failed, metrics, rejectedInSource,
          accounting.of(s).facts));
    }
    return accounts;
  }

  /** The run parts of a source: its distinct run parts, or the one "" of a single-run source. */
  private List<String> partsOf(int s) {
    TreeSet<String> names = new TreeSet<>(accounting.of(s).parts.keySet());
    if (!sources.get(s).plan.multiRun() || names.isEmpty()) {
      return List.of("");
    }
    return new ArrayList<>(names);
  }

  private String runIdOf(int s, String part) {
    IngestSource source = sources.get(s);
    if (!source.plan.multiRun()) {
      return source.runId;
    }
    return new MultiRunIds(multiRunPrefix(source)).call(part);
  }

  List<String> runIdsOf(IngestSource source) {
    int s = sources.indexOf(source);
    return partsOf(s).stream().map(p -> runIdOf(s, p)).toList();
  }

  /** run id by "source SEP run part"; a multi-run source's "" (its rejects) goes to its first run. */
  private Column runIdColumn() {
    List<Column> entries = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      List<String> names = partsOf(s);
      for (String part : names) {
        entries.add(lit(s + SEP + part));
        entries.add(lit(runIdOf(s, part)));
      }
      if (!names.contains("")) {
        entries.add(lit(s + SEP));
        entries.add(lit(runIdOf(s, names.get(0))));
      }
    }
    Column key = concat(col(ParsedRows.SOURCE).cast("string"), lit(SEP), col(ParsedRows.RUN_PART));
    return element_at(functions.map(entries.toArray(new Column[0])), key);
  }

  /**
   * The run id of a task row from its source and run part, as {@link #runIdOf} gives it (through
   * the same {@link MultiRunIds}), but without knowing the run parts yet: the one pass writes tasks
   * before the accounting is in.
   */
  static Column taskRunIdColumn(List<IngestSource> sources) {
    Column id = null;
    for (int s = 0; s < sources.size(); s++) {
      IngestSource source = sources.get(s);
      Column value = source.plan.multiRun()
          ? functions.udf(new MultiRunIds(multiRunPrefix(source)), DataTypes.StringType).apply(col(ParsedRows.RUN_PART))
          : lit(source.runId);
      if (sources.size() == 1) {
        return value;
      }
      id = id == null ? functions.when(col(ParsedRows.SOURCE).equalTo(s), value)
          : id.when(col(ParsedRows.SOURCE).equalTo(s), value);
    }
    return id;
  }

  /**
   * The one definition of a multi-run source's run ids: its prefix and the first 8 hex digits of
   * the SHA-256 of the run part. A UDF for the task rows; the few distinct parts are hashed once
   * per Spark task.
   */
  static final class MultiRunIds implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;
    private final String prefix;
    private transient Map<String, String> known;

    MultiRunIds(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public String call(String part) {
      if (known == null) {
        known = new HashMap<>();
      }
      return known.computeIfAbsent(part, p -> prefix + Sha256.hex(p).substring(0, 8));
    }
  }

  private static String multiRunPrefix(IngestSource source) {
    return source.plan.format() + "-" + source.key.substring(0, 12) + "-";
  }

  private Column sourceFileColumn() {
    List<Column> entries = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      for (int f = 0; f < sources.get(s).files.size(); f++) {
        entries.add(lit(s + SEP + f));
        entries.add(lit(sources.get(s).files.get(f).path()));
      }
    }
    Column key = concat(col(ParsedRows.SOURCE).cast("string"), lit(SEP), col(ParsedRows.FILE).cast("string"));
    return element_at(functions.map(entries.toArray(new Column[0])), key);
  }

  WarehouseWriter.Batch batch() {
    Column runId = runIdColumn().as(WarehouseSchema.RUN_ID);
    // The warehouse's columns, each under its own name, but for those the pass carries otherwise.
    Dataset<Row> rejects = rows.where(col(ParsedRows.KIND).equalTo(ParsedRows.REJECT)).select(
        SchemaColumns.select(WarehouseSchema.REJECTS, Map.of(
            WarehouseSchema.RUN_ID, runId,
            WarehouseSchema.REJECT_SOURCE_FILE, sourceFileColumn())));
    Dataset<Row> metrics = metricRows().select(SchemaColumns.select(WarehouseSchema.STEP_METRICS, Map.of(
        WarehouseSchema.RUN_ID, runId,
        WarehouseSchema.SOURCE_LINE, col(ParsedRows.LINE_NO))));
    java.util.Set<WarehouseSchema.Table> empty = java.util.EnumSet.noneOf(WarehouseSchema.Table.class);
    long taskCount = 0;
    long metricCount = 0;
    long rejectCount = 0;
    for (int s = 0; s < sources.size(); s++) {
      for (String part : partsOf(s)) {
        taskCount += accounting.of(s).part(part).tasks;
        metricCount += metricsOf(s, part);
        rejectCount += rejectedOf(s, part);
      }
    }
    if (taskCount == 0) {
      empty.add(WarehouseSchema.Table.TASKS);
    }
    if (metricCount == 0) {
      empty.add(WarehouseSchema.Table.STEP_METRICS);
    }
    if (rejectCount == 0) {
      empty.add(WarehouseSchema.Table.REJECTS);
    }
    return new WarehouseWriter.Batch(runsRows(), null, metrics, rejects, ingestFilesRows(), empty, stagedTasks);
  }

  /** Metric rows in the ParsedRows schema, after each source's transform. */
  private Dataset<Row> metricRows() {
    Dataset<Row> all = rows.where(col(ParsedRows.KIND).equalTo(ParsedRows.METRIC));
    List<Integer> transformed = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      if (sources.get(s).plan.metricsTransform() != UnaryOperator.<Dataset<Row>>identity()) {
        transformed.add(s);
      }
    }
    if (transformed.isEmpty()) {
      return all;
    }
    Dataset<Row> out = all.where(functions.not(col(ParsedRows.SOURCE).isin(transformed.toArray())));
    for (int s : transformed) {
      Dataset<Row> one = sources.get(s).plan.metricsTransform().apply(all.where(col(ParsedRows.SOURCE).equalTo(s)));
      transformedMetricCounts.put(s, one.count());
      out = out.unionByName(one);
    }
    return out;
  }

  private long metricsOf(int s, String part) {
    if (transformedMetricCounts.containsKey(s)) {
      return transformedMetricCounts.get(s);
    }
    return accounting.of(s).part(part).metrics;
  }

  private Dataset<Row> runsRows() {
    List<Row> runs = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      for (String part : partsOf(s)) {
        runs.add(runRow(s, part));
      }
    }
    return spark.createDataFrame(runs, WarehouseSchema.RUNS);
  }

  /**
   * One row per file of every source, under the source's first run (as its rejects are): a file
   * of a source that splits into several runs is counted once.
   */
  private Dataset<Row> ingestFilesRows() {
    List<Row> files = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      String runId = runIdOf(s, partsOf(s).get(0));
      for (int f = 0; f < sources.get(s).files.size(); f++) {
        ScannedFile file = sources.get(s).files.get(f);
        FileCounts count = accounting.of(s).file(f);
        files.add(RowFactory.create(runId, file.path(), file.sha256(), file.bytes(), file.lines(), count.data,
            count.metadata, count.rejected));
      }
    }
    return spark.createDataFrame(files, WarehouseSchema.INGEST_FILES);
  }

  private long rejectedOf(int s, String part) {
    List<String> names = partsOf(s);
    if (!part.equals(names.get(0))) {
      return 0;
    }
    return accounting.of(s).rejectedLines();
  }

  private Row runRow(int s, String part) {
    IngestSource source = sources.get(s);
    SourcePlan.RunInfo info = source.plan.run();
    PartStats stats = accounting.of(s).part(part);
    Map<String, String> sourceFacts = accounting.of(s).facts;
    TreeMap<String, String> labels = new TreeMap<>(info.labels());
    if (source.plan.multiRun() && !part.isEmpty() && sourceFacts.containsKey("run_label")) {
      labels.put(sourceFacts.get("run_label"), part);
    }
    labels.putAll(cliLabels);
    Map<String, String> dims = new HashMap<>();
    for (String dim : Labels.DIMENSIONS) {
      String value = labels.containsKey(dim) ? labels.get(dim)
          : info.dimensions().containsKey(dim) ? info.dimensions().get(dim) : sourceFacts.get(dim);
      if (value != null) {
        dims.put(dim, value);
      }
    }
    if (!dims.containsKey(Labels.DB_MAJOR) && dims.containsKey(Labels.DB_VERSION)) {
      Integer major = majorOf(dims.get(Labels.DB_VERSION));
      if (major != null) {
        dims.put(Labels.DB_MAJOR, major.toString());
      }
    }
    Instant started = info.startedAt();
    Instant finished = info.finishedAt();
    if (started == null && stats.minStartUs != null && !"false".equals(sourceFacts.get("times_known"))) {
      started = instantOfMicros(stats.minStartUs);
    }
    if (finished == null && stats.maxEndUs != null && !"false".equals(sourceFacts.get("times_known"))) {
      finished = instantOfMicros(stats.maxEndUs);
    }
    List<Row> files = source.files.stream().map(f -> RowFactory.create(f.path(), f.sha256(), f.bytes())).toList();
    return RowFactory.create(
        runIdOf(s, part),
        source.plan.format(),
        source.key,
        CollectionConverters.asScala(files).toSeq(),
        CollectionConverters.asScala(labels),
        dims.get(Labels.OS),
        dims.get(Labels.DB_VERSION),
        wholeNumber(dims.get(Labels.DB_MAJOR)),
        dims.get(Labels.WORKLOAD),
        wholeNumber(dims.get(Labels.CLIENTS)),
        dims.get(Labels.HOST),
        info.status(),
        started == null ? null : Timestamp.from(started),
        finished == null ? null : Timestamp.from(finished),
        stats.tasks,
        metricsOf(s, part),
        rejectedOf(s, part),
        metadataJson(s, sourceFacts),
        Timestamp.from(ingestedAt),
        BenchlakeVersion.describe(),
        info.dimensions().get(WarehouseSchema.SERVER_START));
  }

  private String metadataJson(int s, Map<String, String> sourceFacts) {
    IngestSource source = sources.get(s);
    Map<String, Object> json = new LinkedHashMap<>();
    List<Map<String, Object>> files = new ArrayList<>();
    for (int f = 0; f < source.files.size(); f++) {
      ScannedFile file = source.files.get(f);
      FileCounts count = accounting.of(s).file(f);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", file.path());
      entry.put("lines", file.lines());
      entry.put("accepted", count.accepted());
      entry.put("rejected", count.rejected);
      files.add(entry);
    }
    json.put("files", files);
    if (!sourceFacts.isEmpty()) {
      json.put("facts", new TreeMap<>(sourceFacts));
    }
    if (!source.plan.run().metadata().isEmpty()) {
      json.put("source", new TreeMap<>(source.plan.run().metadata()));
    }
    try {
      return Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  List<RunOutcome> outcomes(Outcome outcome) {
    List<RunOutcome> out = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      IngestSource source = sources.get(s);
      for (String part : partsOf(s)) {
        PartStats stats = accounting.of(s).part(part);
        out.add(new RunOutcome(runIdOf(s, part), source.plan.format(),
            source.replacedRunIds.isEmpty() ? Outcome.ADDED : outcome, stats.tasks, metricsOf(s, part),
            rejectedOf(s, part), source.files.stream().map(ScannedFile::path).toList()));
      }
    }
    return out;
  }

  /** Turns the sources into chunk jobs: one per chunk of every file. */
  private static List<ChunkJob> chunkJobs(List<IngestSource> sources) {
    List<ChunkJob> jobs = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      IngestSource source = sources.get(s);
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
  private static JavaRDD<Row> chunkRdd(SparkSession spark, List<ChunkJob> jobs, ChunkFunction parse) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    // Executors open the files on the driver's Hadoop configuration (file systems, credentials).
    Broadcast<SerializableConfiguration> conf = jsc.broadcast(
        new SerializableConfiguration(spark.sparkContext().hadoopConfiguration()));
    return jsc.parallelize(jobs, Math.max(1, jobs.size()))
        .flatMap(job -> parse.rows(job, Storage.on(conf.value().value())));
  }

  /** The first rejected line of a file, for the message of a file that is all rejects. */
  private static String firstReject(Dataset<Row> rows, int source, int file) {
    List<Row> first = rows.where(col(ParsedRows.KIND).equalTo(ParsedRows.REJECT)
            .and(col(ParsedRows.SOURCE).equalTo(source)).and(col(ParsedRows.FILE).equalTo(file)))
        .orderBy(ParsedRows.LINE_NO).limit(1).select(ParsedRows.LINE_NO, WarehouseSchema.RAW_LINE, WarehouseSchema.REASON).collectAsList();
    if (first.isEmpty()) {
      return "";
    }
    Row r = first.get(0);
    return "line " + r.getLong(0) + " " + RawLines.quote(r.getString(1), 60) + ": " + r.getString(2);
  }

  private static StorageLevel cacheLevel() {
    return StorageLevel.MEMORY_AND_DISK();
  }

  /**
   * An integer dimension, or null when the source's text is not one (labels are checked when
   * given; a file's own "Number of threads: 2 (of 4)" is not): the text stays in the run's facts.
   */
  static Integer wholeNumber(String text) {
    if (text == null) {
      return null;
    }
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The major version of a PostgreSQL version string from 10 on ({@code 14.22} → 14); null before 10. */
  static Integer majorOf(String version) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)").matcher(version.trim());
    if (!m.find()) {
      return null;
    }
    // A label may hold any number of digits: one that does not fit an int is no major version.
    Integer major = wholeNumber(m.group(1));
    return major != null && major >= 10 ? major : null;
  }

  static Instant instantOfMicros(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }
}
