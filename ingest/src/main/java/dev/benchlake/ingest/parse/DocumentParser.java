package dev.benchlake.ingest.parse;

import java.io.Serializable;
import java.util.List;

/**
 * Parses a file as a whole: text reports whose lines mean something only in their section
 * (pgbench and sysbench summaries). Such files are small and are parsed as one chunk.
 */
public interface DocumentParser extends Serializable {
  /** Gives exactly one verdict for each line; {@code lines.get(i)} is line {@code i + 1}. */
  void parse(List<String> lines, ParseSink sink);

  /** Whether this parser can give a task verdict (see {@link LineParser#yieldsTasks}). */
  default boolean yieldsTasks() {
    return true;
  }
}
