package dev.benchlake.ingest;

import dev.benchlake.ingest.format.NotResult;

import java.util.List;

/**
 * What an ingest did.
 *
 * @param runs one entry per run, in the order of the sources
 * @param files the accounting of every file read: its lines = accepted + rejected
 * @param notResults files of the inputs that were not read, each with why: not results (a
 *     README or a chart beside the results, a mytools tree's vmstat captures, configs…) and hidden
 *     files and folders found under a folder
 */
public record IngestResult(List<RunOutcome> runs, List<FileAccount> files, List<NotResult> notResults) {
  public IngestResult {
    runs = List.copyOf(runs);
    files = List.copyOf(files);
    notResults = List.copyOf(notResults);
  }

  public IngestResult(List<RunOutcome> runs, List<FileAccount> files) {
    this(runs, files, List.of());
  }

  /** Whether anything was written. */
  public boolean changedWarehouse() {
    return runs.stream().anyMatch(r -> r.outcome() != Outcome.ALREADY_INGESTED);
  }

  public enum Outcome {
    ADDED,
    REPLACED,
    /** The same content is already in the warehouse: nothing was added. */
    ALREADY_INGESTED
  }

  /**
   * @param tasks tasks written (or already there)
   * @param stepMetrics step_metrics rows
   * @param linesRejected lines kept in {@code rejects}
   */
  public record RunOutcome(
      String runId, String format, Outcome outcome, long tasks, long stepMetrics, long linesRejected, List<String> files) {
    public RunOutcome {
      files = List.copyOf(files);
    }
  }

  /** @param accepted lines that became rows or are metadata of the format (headers, blanks…) */
  public record FileAccount(String path, long lines, long accepted, long rejected) {}

  /** How many files were not read (a hidden folder counts its files). */
  public long filesNotRead() {
    return notResults.stream().mapToLong(NotResult::files).sum();
  }
}
