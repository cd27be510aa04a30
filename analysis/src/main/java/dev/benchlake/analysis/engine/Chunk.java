package dev.benchlake.analysis.engine;

import java.io.Serializable;
import java.util.List;

/** What the map side of the sort sends to a partition: latencies of one step, or task counts. */
sealed interface Chunk extends Serializable {
  /** Packed latencies ({@link RunPacking}) of one step, unsorted. */
  record Values(String step, long[] packed) implements Chunk {}

  /** Task counts per run and step, from one input partition. */
  record Counts(List<RunCounts> counts) implements Chunk {}
}
