package dev.benchlake.ingest.parse;

import java.io.Serializable;

/**
 * Parses a line-oriented file one line at a time, independently of the other lines, so that a
 * large file can be split into chunks parsed in parallel. Implementations are immutable, carry
 * everything they need from the driver (header, origin time, step name) and are shipped to the
 * executors.
 */
public interface LineParser extends Serializable {
  /** Gives exactly one verdict for {@code line} (see {@link ParseSink}). */
  void parse(long lineNo, String line, ParseSink sink);

  /**
   * Whether this parser can give a task verdict. An ingest whose parsers give none writes no
   * tasks table (it would only be discarded), which a small sysbench or summary ingest feels.
   */
  default boolean yieldsTasks() {
    return true;
  }
}
