package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.LineParser;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * One logical source as a format planned it: the files of one run (or, for a CSV with a run
 * column or a wide table, of several runs), the parser of each file, and what the driver already
 * knows about the run.
 *
 * @param format the format's name
 * @param files the files, in a stable order; the first is the one named in messages
 * @param runId the run id the source carries (a loadgen manifest's), or null to derive one from
 *     the content hash
 * @param multiRun whether rows carry a run part that splits the source into several runs
 * @param keyExtra what besides the files' content determines the rows (a CSV mapping's hash), or ""
 * @param run what is known before parsing: status, times, labels and dimensions from the source
 * @param check validation on the parsed counts (e.g. failures agree with a companion file); throws
 *     {@code BadInputException}
 * @param metricsTransform applied to this source's step_metrics rows (ParsedRows schema) before
 *     they are written, e.g. to merge per-thread aggregate logs; identity when none
 * @param folder the folder whose results are this one run (a mytools result folder), or null. Such a
 *     run owns its result files: a committed run of the same format that holds one of its data files
 *     (not a checking file: two summaries may be byte for byte alike) from other content is an
 *     earlier reading of the folder (release 0.3.0 stored a mytools folder one run per output; or
 *     the folder changed since), which the ingest refuses to land beside it unless {@code --replace}
 *     replaces it. Messages name the folder.
 */
public record SourcePlan(
    String format,
    List<PlannedFile> files,
    String runId,
    boolean multiRun,
    String keyExtra,
    RunInfo run,
    Consumer<SourceStats> check,
    UnaryOperator<Dataset<Row>> metricsTransform,
    Path folder) {

  public SourcePlan {
    files = List.copyOf(files);
    keyExtra = keyExtra == null ? "" : keyExtra;
    check = check == null ? stats -> { } : check;
    metricsTransform = metricsTransform == null ? UnaryOperator.identity() : metricsTransform;
  }

  /** A single-run source with no extra checks. */
  public static SourcePlan of(String format, List<PlannedFile> files, RunInfo run) {
    return new SourcePlan(format, files, null, false, "", run, null, null, null);
  }

  /** The one run of a folder's results (see {@code folder}). */
  public static SourcePlan ofFolder(String format, Path folder, List<PlannedFile> files, RunInfo run) {
    return new SourcePlan(format, files, null, false, "", run, null, null, folder);
  }

  public SourcePlan withCheck(Consumer<SourceStats> newCheck) {
    return new SourcePlan(format, files, runId, multiRun, keyExtra, run, newCheck, metricsTransform, folder);
  }

  /** This plan with {@code extra} labels over the source's own (labels read from its path). */
  public SourcePlan withLabels(Map<String, String> extra) {
    if (extra.isEmpty()) {
      return this;
    }
    Map<String, String> labels = new TreeMap<>(run.labels());
    labels.putAll(extra);
    RunInfo info = new RunInfo(run.status(), run.startedAt(), run.finishedAt(), labels, run.dimensions(), run.metadata());
    return new SourcePlan(format, files, runId, multiRun, keyExtra, info, check, metricsTransform, folder);
  }

  public SourcePlan withMetricsTransform(UnaryOperator<Dataset<Row>> transform) {
    return new SourcePlan(format, files, runId, multiRun, keyExtra, run, check, transform, folder);
  }

  /**
   * A file and its parser (exactly one of the two parsers).
   *
   * @param role what the file is to its source ({@link Role})
   */
  public record PlannedFile(Path path, LineParser lineParser, DocumentParser documentParser, Role role) {
    public PlannedFile {
      if ((lineParser == null) == (documentParser == null)) {
        throw new IllegalArgumentException("a file needs exactly one parser: " + path);
      }
    }

    public static PlannedFile lines(Path path, LineParser parser) {
      return new PlannedFile(path, parser, null, Role.DATA);
    }

    public static PlannedFile document(Path path, DocumentParser parser) {
      return new PlannedFile(path, null, parser, Role.DATA);
    }

    /** A file that checks the source's other files ({@link Role#CHECK}). */
    public static PlannedFile checking(Path path, DocumentParser parser) {
      return new PlannedFile(path, null, parser, Role.CHECK);
    }

    /** A file of figures beside the source's data ({@link Role#COMPANION}). */
    public static PlannedFile companion(Path path, DocumentParser parser) {
      return new PlannedFile(path, null, parser, Role.COMPANION);
    }

    /** Whether the file only checks the others ({@link Role#CHECK}). */
    public boolean check() {
      return role == Role.CHECK;
    }

    /** Whether it may be cut into chunks parsed in parallel (line parsers only). */

    public boolean splittable() {
      return lineParser != null;
    }
  }

  /** What a file is to its source. */
  public enum Role {
    /** The results: in the source's content key; a file whose every line is rejected stops the ingest. */
    DATA,
    /**
     * Checks the others (a summary of figures they carry): in the content key, but its lines are
     * metadata or rejects, never rows, so a file of rejects is not "every line rejected" but a source
     * whose summary disagrees, kept with its reasons.
     */
    CHECK,
    /**
     * Figures beside the results that an earlier release did not read (mytools' {@code sb.met}
     * files): kept in {@code source_files}, but not in the content key, so that a folder ingested
     * before still reads as already ingested (not as a folder that changed, which is refused without
     * {@code --replace}); and a file of rejects is kept with its reasons, the results still landing.
     */
    COMPANION
  }

  /**
   * What a source says about its run before parsing.
   *
   * @param status {@code complete}, {@code interrupted} or {@code failed}
   * @param startedAt when known from the source itself (else from the tasks)
   * @param finishedAt likewise
   * @param labels labels the source carries (overridden by {@code --label})
   * @param dimensions known values of runs columns ({@code workload}, {@code clients}, {@code db_version}…)
   * @param metadata anything else worth keeping, as a JSON-able map
   */
  public record RunInfo(
      String status,
      Instant startedAt,
      Instant finishedAt,
      Map<String, String> labels,
      Map<String, String> dimensions,
      Map<String, Object> metadata) {

    public RunInfo {
      labels = Map.copyOf(labels);
      dimensions = Map.copyOf(dimensions);
      metadata = Map.copyOf(metadata);
    }

    public static RunInfo complete(Map<String, Object> metadata) {
      return new RunInfo("complete", null, null, Map.of(), Map.of(), metadata);
    }
  }

  /**
   * Counts after parsing, for {@link SourcePlan#check}.
   *
   * @param failedTasks tasks with ok = false
   * @param facts the facts the parsers reported
   */
  public record SourceStats(long tasks, long failedTasks, long metrics, long rejectedLines, Map<String, String> facts) {}
}
